package org.brokerapp.loadtest.measure;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import org.brokerapp.client.NotSent;

/**
 * Failed operations counted by kind, e.g. {@code "MARKET: HTTP 422 Unsupported order"} or
 * {@code "LIMIT: timeout"}, with the first example of each kind: a kind says what failed, its
 * example (which order, the answer's detail) lets one tell a right refusal from a wrong one.
 */
public final class ErrorKinds {

    /** Longest example kept: enough for an order and a problem's detail, never a whole answer. */
    static final int EXAMPLE_MAX_CHARS = 240;

    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();
    private final Map<String, String> examples = new ConcurrentHashMap<>();

    public void count(String kind) {
        counts.computeIfAbsent(kind, k -> new LongAdder()).increment();
    }

    /** Counts one failure of {@code kind}; {@code example} is kept if it is the kind's first. */
    public void count(String kind, String example) {
        count(kind);
        examples.putIfAbsent(kind, example.length() <= EXAMPLE_MAX_CHARS ? example : example.substring(0, EXAMPLE_MAX_CHARS - 3) + "...");
    }

    /** The first example of each kind that was given one, by kind. */
    public Map<String, String> examples() {
        return new TreeMap<>(examples);
    }

    public long total() {
        return counts.values().stream().mapToLong(LongAdder::sum).sum();
    }

    public Map<String, Long> snapshot() {
        Map<String, Long> copy = new TreeMap<>();
        counts.forEach((k, v) -> copy.put(k, v.sum()));
        return copy;
    }

    /** What happened between two snapshots. */
    public static Map<String, Long> difference(Map<String, Long> later, Map<String, Long> earlier) {
        Map<String, Long> diff = new TreeMap<>();
        later.forEach((k, v) -> {
            long d = v - earlier.getOrDefault(k, 0L);
            if (d > 0) {
                diff.put(k, d);
            }
        });
        return diff;
    }

    /** The kind of a failure: a timeout, a refused connection, an operation the harness did not send, or else an exception's class name (its cause's if it only wraps one). */
    public static String ofThrowable(Throwable error) {
        Throwable cause = error;
        while (cause.getCause() != null && (cause instanceof java.util.concurrent.CompletionException
                || cause instanceof java.util.concurrent.ExecutionException || cause instanceof java.io.UncheckedIOException)) {
            cause = cause.getCause();
        }
        if (cause instanceof java.net.http.HttpTimeoutException || cause instanceof java.net.SocketTimeoutException) {
            return "timeout";
        }
        if (cause instanceof java.net.ConnectException) {
            return "connection refused";
        }
        if (cause instanceof NotSent) {
            return "not sent (" + cause.getMessage() + ")";
        }
        return cause.getClass().getSimpleName();
    }
}
