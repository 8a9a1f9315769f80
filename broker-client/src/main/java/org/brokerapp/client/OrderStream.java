package org.brokerapp.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * A customer's open {@code GET /api/orders/stream}: Server-Sent Events read on a thread of their own
 * into a queue (or handed to a listener on that thread), each stamped when it arrived. {@link #close()} hangs up; a new stream with the last
 * event's id resumes after it.
 */
public final class OrderStream implements AutoCloseable {

    /** One event as it arrived: its {@code id:} (empty when it had none), {@code event:} name and {@code data:}. */
    public record Event(String id, String name, String data, Instant receivedAt) {
    }

    private static final Duration OPEN_TIMEOUT = Duration.ofSeconds(10);

    private final int status;
    private final String contentType;
    private final String body;
    private final Stream<String> lines;
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final Consumer<Event> listener;
    private volatile boolean ended;

    private OrderStream(HttpResponse<Stream<String>> response, Consumer<Event> listener) {
        this.listener = listener == null ? events::add : listener;
        this.status = response.statusCode();
        this.contentType = response.headers().firstValue("Content-Type").orElse("");
        if (status != 200) {
            try (Stream<String> refusal = response.body()) {
                this.body = String.join("\n", refusal.toList());
            }
            this.lines = Stream.empty();
            this.ended = true;
            return;
        }
        this.body = "";
        this.lines = response.body();
        Thread reader = new Thread(this::read, "order-stream-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** Opens the stream at {@code base} with the given Authorization header, after {@code lastEventId} when present. */
    static OrderStream open(HttpClient http, String base, String authorization, Optional<String> lastEventId, Consumer<Event> listener) {
        // the timeout runs until the answer's headers, not over the stream: the broker sends them at once
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/api/orders/stream")).timeout(OPEN_TIMEOUT)
                .header("Accept", "text/event-stream");
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        lastEventId.ifPresent(id -> request.header("Last-Event-ID", id));
        try {
            return new OrderStream(http.send(request.GET().build(), HttpResponse.BodyHandlers.ofLines()), listener);
        } catch (IOException e) {
            throw new IllegalStateException("GET /api/orders/stream at " + base + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The answer's status: 200 once the stream is open. */
    public int status() {
        return status;
    }

    public String contentType() {
        return contentType;
    }

    /** A refusal's body (problem details); empty for an open stream. */
    public String refusal() {
        return body;
    }

    /** The next event, waiting at most (empty with a listener, which takes every event as it comes) {@code timeout}; empty if none came. */
    public Optional<Event> next(Duration timeout) {
        try {
            return Optional.ofNullable(events.poll(timeout.toMillis(), TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** Every event that came and was not taken yet. */
    public List<Event> drain() {
        List<Event> all = new ArrayList<>();
        events.drainTo(all);
        return all;
    }

    /** True once the broker ended the stream (or hung up). */
    public boolean ended() {
        return ended;
    }

    private void read() {
        String id = "";
        String name = "message";
        StringBuilder data = new StringBuilder();
        try {
            for (String line : (Iterable<String>) lines::iterator) {
                if (line.isEmpty()) {
                    if (!data.isEmpty()) {
                        listener.accept(new Event(id, name, data.toString(), Instant.now()));
                    }
                    id = "";
                    name = "message";
                    data.setLength(0);
                } else if (line.startsWith("id:")) {
                    id = line.substring(3).strip();
                } else if (line.startsWith("event:")) {
                    name = line.substring(6).strip();
                } else if (line.startsWith("data:")) {
                    data.append(data.isEmpty() ? "" : "\n").append(line.substring(5).strip());
                }
                // ":" lines are comments (heartbeats)
            }
        } catch (RuntimeException hungUp) {
            // closed by us, or the connection dropped: the stream has ended either way
        } finally {
            ended = true;
        }
    }

    @Override
    public void close() {
        lines.close();
    }
}
