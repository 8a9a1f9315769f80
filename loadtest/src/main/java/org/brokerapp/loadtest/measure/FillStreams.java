package org.brokerapp.loadtest.measure;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.brokerapp.client.BrokerClient;
import org.brokerapp.client.OrderStream;
import tools.jackson.databind.JsonNode;

/**
 * Fill-to-customer latency: a few customers hold an order-update stream open in every region
 * ({@code GET /api/orders/stream}), and each FILLED update is recorded from the fill's time at its
 * decider ({@code filledAt}) to its arrival here, by the region the stream is in and whether the
 * fill was decided in another. On the local stack every clock is the host's; against a deployment
 * the figure includes the skew between the decider's clock and the harness's.
 */
public final class FillStreams implements AutoCloseable {

    private final List<OrderStream> streams = new ArrayList<>();

    private FillStreams() {
    }

    /** Opens a stream per customer ({@code customers}: id to password) in each of {@code regions}; a refused one is reported in {@code errors}. */
    public static FillStreams open(BrokerClient client, List<String> regions, Map<String, String> customers, LatencyBook latencies,
                                   ErrorKinds errors) {
        FillStreams fills = new FillStreams();
        for (String region : regions) {
            customers.forEach((customer, password) -> {
                OrderStream stream;
                try {
                    stream = client.session(region, customer, password).stream(Optional.empty(), e -> record(e, region, latencies));
                } catch (IllegalStateException unanswered) {
                    errors.count("stream unanswered", "GET /api/orders/stream as " + customer + " in " + region + ": " + unanswered.getMessage());
                    return;
                }
                if (stream.status() == 200) {
                    fills.streams.add(stream);
                } else {
                    errors.count("stream HTTP " + stream.status(), "GET /api/orders/stream as " + customer + " in " + region + ": " + stream.refusal());
                }
            });
        }
        return fills;
    }

    private static void record(OrderStream.Event event, String region, LatencyBook latencies) {
        if (!event.name().equals("FILLED")) {
            return;
        }
        JsonNode update = BrokerClient.parse(event.data());
        String decidedIn = update.path("decidedIn").asString();
        String filledAt = update.path("filledAt").asString();
        if (filledAt.isEmpty()) {
            return;
        }
        long micros = Duration.between(Instant.parse(filledAt), event.receivedAt()).toNanos() / 1_000;
        latencies.recordMicros(Measures.fillToCustomer(region, !decidedIn.equals(region)), micros);
    }

    /** The streams open now (a stream the broker ended is not opened again). */
    public long open() {
        return streams.stream().filter(s -> !s.ended()).count();
    }

    @Override
    public void close() {
        streams.forEach(OrderStream::close);
    }
}
