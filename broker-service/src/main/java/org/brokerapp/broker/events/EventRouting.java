package org.brokerapp.broker.events;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * What decides the region that acts on an order event: for the matcher (an order to rest, a cancel
 * request) its symbol and exchange, for the customer's account its customer. The publisher writes
 * it as headers of the event's Kafka record (the customer is the record's key), so a relay picks out
 * the records for its destination without decoding the others and hands its own on as they were
 * published, decoded once, where they are taken.
 *
 * @param exchange absent from the event, absent here
 */
public record EventRouting(boolean forMatcher, String symbol, String exchange, String customerId) {

    static final String FOR = "for";
    static final String SYMBOL = "symbol";
    static final String EXCHANGE = "exchange";
    private static final String MATCHER = "matcher";
    private static final String ACCOUNT = "account";

    public static EventRouting of(OrderEvent event) {
        return new EventRouting(event.forMatcher(), event.symbol(), event.exchange(), event.customerId());
    }

    /** As read from a record's headers and key; empty for a record without them (written before they were, or by another producer). */
    public static Optional<EventRouting> of(ConsumerRecord<String, byte[]> record) {
        String to = text(record.headers().lastHeader(FOR));
        String symbol = text(record.headers().lastHeader(SYMBOL));
        if (to == null || symbol == null || record.key() == null || !(to.equals(MATCHER) || to.equals(ACCOUNT))) {
            return Optional.empty();
        }
        return Optional.of(new EventRouting(to.equals(MATCHER), symbol, text(record.headers().lastHeader(EXCHANGE)), record.key()));
    }

    /** The headers of the event's record; its key is {@link #customerId}. */
    public Headers headers() {
        Headers headers = new RecordHeaders();
        headers.add(FOR, bytes(forMatcher ? MATCHER : ACCOUNT));
        headers.add(SYMBOL, bytes(symbol));
        if (exchange != null) {
            headers.add(EXCHANGE, bytes(exchange));
        }
        return headers;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(Header header) {
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
