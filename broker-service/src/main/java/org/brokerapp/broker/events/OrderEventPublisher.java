package org.brokerapp.broker.events;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.brokerapp.broker.system.BrokerProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Publishes order events to this region's {@code order-events} topic, acknowledged by every
 * in-sync replica. When Kafka has not acknowledged an event within {@code broker.events.direct-after}
 * (or refused it), the event is also carried straight to the region that acts on it
 * ({@link DirectDelivery}, the relay's own hand-over), so an outage of this region's Kafka delays
 * placements by that wait instead of refusing them: once {@link #publish} completes, the event is
 * durable in Kafka or taken by the region acting on it. What Kafka refused is sent to it again once
 * it acknowledges an event anew ({@link KafkaBacklog}); while something is owed, the oldest owed
 * event is sent again every {@link #BACKLOG_PROBE}, so the backlog drains after an outage even when
 * no new event follows it. Creates the order path's topics at start-up when they are missing.
 */
@Component
public class OrderEventPublisher implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(OrderEventPublisher.class);
    /**
     * How long a send may hold its caller waiting for Kafka's metadata, which it does only when Kafka
     * is unreachable: a send refused then goes the direct way at once (a MARKET order's event is sent
     * on the order's own thread, and the drill measured each such order held for the whole wait).
     */
    private static final Duration METADATA_WAIT = Duration.ofMillis(200);
    /** Events owed to Kafka kept in memory: at 20 orders/s (a few events each), most of an hour's outage. */
    private static final int BACKLOG_CAPACITY = 100_000;
    /**
     * How often one owed event is sent again as a probe: its acknowledgement sends the rest. Only one,
     * so a long outage does not fill the producer's buffer with events bound to time out again.
     */
    static final Duration BACKLOG_PROBE = Duration.ofSeconds(2);

    private final KafkaProducer<String, byte[]> producer;
    private final OrderEventCodec codec;
    private final KafkaClientMetrics producerMeters;
    private final ObjectProvider<DirectDelivery> direct;
    private final OrderEventObserver observer;
    private final Duration directAfter;
    private final Counter deliveredDirectly;
    private final KafkaBacklog backlog = new KafkaBacklog(BACKLOG_CAPACITY);
    private final AtomicBoolean resending = new AtomicBoolean();
    /** Sends the backlog again off the producer's I/O thread, which must not block in a send of its own. */
    private final ScheduledExecutorService resender = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "order-events-backlog");
        thread.setDaemon(true);
        return thread;
    });

    public OrderEventPublisher(BrokerProperties properties, OrderEventCodec codec, ObjectProvider<DirectDelivery> direct, OrderEventObserver observer,
                               MeterRegistry meters) {
        this.codec = codec;
        this.observer = observer;
        // the relay receives from this publisher's consumers and hands to them: looked up at the first fallback, not at construction
        this.direct = direct;
        this.directAfter = properties.events().directAfter();
        this.deliveredDirectly = Counter.builder("broker.events.delivered.directly")
                .description("order events Kafka had not acknowledged in time, carried straight to the region acting on them").register(meters);
        Gauge.builder("broker.events.owed.to.kafka", backlog, KafkaBacklog::size)
                .description("order events Kafka refused, kept to be sent again once it answers").register(meters);
        FunctionCounter.builder("broker.events.owed.dropped", backlog, KafkaBacklog::dropped)
                .description("order events Kafka refused beyond the backlog's bound: only a reindex brings them to search").register(meters);
        OrderPathTopics.ensure(properties);
        Properties config = new Properties();
        config.putAll(properties.kafka().connection());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        // an event is on the answer's path: send at once, never wait to fill a batch
        config.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "10000");
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.toString(Math.min(METADATA_WAIT.toMillis(), directAfter.toMillis())));
        this.producer = new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
        // the producer's own metrics (request latency, retries, buffer use, ...) as kafka.producer.* meters
        this.producerMeters = new KafkaClientMetrics(producer);
        producerMeters.bindTo(meters);
        resender.scheduleWithFixedDelay(this::probeBacklog, BACKLOG_PROBE.toMillis(), BACKLOG_PROBE.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Completes once Kafka acknowledged the event or the region acting on it took it directly;
     * exceptionally if neither did (Kafka within its delivery timeout).
     */
    public CompletableFuture<Void> publish(OrderEvent event) {
        // what it reports is durable already: the customer may learn of it now, not a Kafka round trip later
        observer.observe(event);
        return KafkaOrDirect.deliver(send(event), () -> direct.getObject().deliver(event), directAfter, deliveredDirectly::increment);
    }

    /** A send to Kafka; what it refuses is owed, and an acknowledgement sends what is owed again. */
    private CompletableFuture<Void> send(OrderEvent event) {
        CompletableFuture<Void> sent = new CompletableFuture<>();
        try {
            producer.send(new ProducerRecord<>(EventTopics.ORDER_EVENTS, null, event.key(), codec.encode(event),
                    EventRouting.of(event).headers()), (metadata, error) -> {
                if (error != null) {
                    sent.completeExceptionally(error);
                } else {
                    sent.complete(null);
                }
            });
        } catch (RuntimeException e) {
            sent.completeExceptionally(e);
        }
        sent.whenComplete((ok, error) -> {
            if (error != null) {
                if (!backlog.owe(event)) {
                    log.warn("order event {} neither in Kafka nor kept for it (backlog full): search sees it after a reindex", event.eventId());
                }
            } else if (backlog.size() > 0 && resending.compareAndSet(false, true)) {
                resender.execute(this::sendBacklog);
            }
        });
        return sent;
    }

    private void probeBacklog() {
        if (resending.compareAndSet(false, true)) {
            try {
                OrderEvent oldest = backlog.takeOldest();
                if (oldest != null) {
                    send(oldest);
                }
            } catch (RuntimeException e) {
                log.warn("probing Kafka with an owed order event failed: {}", e.toString());
            } finally {
                resending.set(false);
            }
        }
    }

    private void sendBacklog() {
        try {
            List<OrderEvent> owed = backlog.takeAll();
            log.info("Kafka answers again: sending it the {} order events it refused", owed.size());
            owed.forEach(this::send);
        } finally {
            resending.set(false);
        }
    }

    /** As {@link #publish}, waiting at most {@code max}; false if the event was not acknowledged by then. */
    public boolean publishAndWait(OrderEvent event, Duration max) {
        try {
            publish(event).get(max.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException | TimeoutException e) {
            log.warn("order event {} not published: {}", event.eventId(), e.getMessage());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public void destroy() {
        resender.shutdownNow();
        producerMeters.close();
        producer.close(Duration.ofSeconds(5));
    }
}
