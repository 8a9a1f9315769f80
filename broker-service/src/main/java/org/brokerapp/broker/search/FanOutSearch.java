package org.brokerapp.broker.search;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A customer's search, asked of every region's cluster at once with one deadline: each region
 * indexes what its own broker decided, so only all of them together know everything. Hits are
 * merged newest first; an order known to two regions (placed in one, filled in another) is shown
 * once, in its later state. Regions that did not answer in time are named, never hidden.
 */
final class FanOutSearch {

    /** The merged hits of one page, and who answered. */
    record Page(int page, int size, List<Map<String, Object>> items, SearchRegions regions) {
    }

    private interface RegionCall<T> {
        T call(RegionSearch region) throws IOException;
    }

    private record Answers<T>(Map<String, T> answered, List<SearchRegions.Missing> missing) {
        SearchRegions regions() {
            return new SearchRegions(List.copyOf(answered.keySet()), missing);
        }
    }

    private final List<RegionSearch> regions;
    private final Duration deadline;
    private final ExecutorService executor;

    FanOutSearch(List<RegionSearch> regions, Duration deadline, ExecutorService executor) {
        this.regions = regions;
        this.deadline = deadline;
        this.executor = executor;
    }

    Page trades(SearchQuery q) {
        Answers<List<Map<String, Object>>> answers = ask(r -> r.trades(q));
        return page(q, answers, "filledAt");
    }

    Page orders(SearchQuery q) {
        Answers<List<Map<String, Object>>> answers = ask(r -> r.orders(q));
        return page(q, answers, "placedAt");
    }

    Analytics analytics(Instant from, Instant to, Duration interval, int top) {
        Answers<Analytics.RegionPart> answers = ask(r -> r.analytics(from, to, interval));
        return Analytics.merge(from, to, interval, List.copyOf(answers.answered().values()), answers.regions(), top);
    }

    private <T> Answers<T> ask(RegionCall<T> call) {
        Map<String, CompletableFuture<T>> calls = new LinkedHashMap<>();
        for (RegionSearch region : regions) {
            calls.put(region.region(), CompletableFuture.supplyAsync(() -> {
                try {
                    return call.call(region);
                } catch (IOException e) {
                    throw new CompletionException(e);
                }
            }, executor).orTimeout(deadline.toMillis(), TimeUnit.MILLISECONDS));
        }
        Map<String, T> answered = new LinkedHashMap<>();
        List<SearchRegions.Missing> missing = new ArrayList<>();
        calls.forEach((region, future) -> {
            try {
                answered.put(region, future.join());
            } catch (CompletionException e) {
                missing.add(new SearchRegions.Missing(region, reason(e.getCause() == null ? e : e.getCause())));
            }
        });
        if (answered.isEmpty()) {
            throw new SearchProblem.Unavailable("no region's search answered within " + deadline.toMillis() + " ms: " + missing);
        }
        return new Answers<>(answered, missing);
    }

    private String reason(Throwable t) {
        if (t instanceof TimeoutException) {
            return "no answer within " + deadline.toMillis() + " ms";
        }
        String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        return message.lines().findFirst().orElse(message);
    }

    private static Page page(SearchQuery q, Answers<List<Map<String, Object>>> answers, String timeField) {
        Map<String, Map<String, Object>> byOrder = new LinkedHashMap<>();
        for (List<Map<String, Object>> hits : answers.answered().values()) {
            for (Map<String, Object> hit : hits) {
                byOrder.merge(String.valueOf(hit.get("orderId")), hit, FanOutSearch::later);
            }
        }
        List<Map<String, Object>> merged = byOrder.values().stream()
                .sorted(Comparator.<Map<String, Object>, Instant>comparing(h -> h.get(timeField) == null ? null : Instant.parse(String.valueOf(h.get(timeField))),
                                Comparator.nullsFirst(Comparator.<Instant>naturalOrder())).reversed()
                        .thenComparing(h -> String.valueOf(h.get("orderId"))))
                .toList();
        int fromIndex = Math.min(merged.size(), (q.page() - 1) * q.size());
        int toIndex = Math.min(merged.size(), q.page() * q.size());
        return new Page(q.page(), q.size(), merged.subList(fromIndex, toIndex), answers.regions());
    }

    /**
     * Of two documents of one order (one per region that knew it), the one in the later state (a
     * FILLED or CANCELLED beats OPEN), completed with the placement fields only the other has (a
     * fill decided in the symbol's region, the placement recorded in the customer's).
     */
    private static Map<String, Object> later(Map<String, Object> a, Map<String, Object> b) {
        return rank(b) > rank(a) ? SearchDocuments.withPlacement(b, a) : SearchDocuments.withPlacement(a, b);
    }

    private static int rank(Map<String, Object> doc) {
        Object status = doc.get("status");
        return status == null || "OPEN".equals(status) ? 1 : 2;
    }
}
