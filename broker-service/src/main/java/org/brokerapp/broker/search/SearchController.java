package org.brokerapp.broker.search;

import java.io.IOException;
import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.security.SecurityRequirement;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.brokerapp.broker.web.Excerpt;
import org.brokerapp.broker.web.OpenApiConfiguration;
import org.springframework.context.annotation.Conditional;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Search over every region's index: a customer's own trades and orders, and the operator's
 * analytics and reindex. Answers are eventually consistent (indexing lag, typically about a
 * second) and say which regions answered; the order API stays the source of truth.
 */
@RestController
@Conditional(SearchEnabled.class)
@Tag(name = "search", description = "Trades and orders across every region (Elasticsearch, fed from order events)")
@SecurityRequirement(name = OpenApiConfiguration.BASIC)
class SearchController {

    static final int MAX_SIZE = 100;
    static final int DEFAULT_SIZE = 50;
    static final int MAX_BUCKETS = 1_440;
    private static final Pattern SYMBOL = Pattern.compile("[A-Z0-9][A-Z0-9.\\-]{0,11}");
    private static final Pattern INTERVAL = Pattern.compile("([1-9][0-9]{0,4})(s|m|h|d)");

    private final FanOutSearch search;
    private final Reindexer reindexer;
    private final SearchProperties properties;

    SearchController(FanOutSearch search, Reindexer reindexer, SearchProperties properties) {
        this.search = search;
        this.reindexer = reindexer;
        this.properties = properties;
    }

    @GetMapping("/api/trades")
    @SecurityRequirement(name = OpenApiConfiguration.BEARER)
    @Operation(summary = "The customer's own trades (fills), newest first, from every region",
            description = "Filters combine. from/to are ISO-8601 instants (from inclusive, to exclusive) on the fill time. "
                    + "regions.missing names the regions that did not answer in time; their trades are absent from this page.")
    FanOutSearch.Page trades(Principal customer,
                             @Parameter(description = "ticker symbol, e.g. IBM") @RequestParam Optional<String> symbol,
                             @Parameter(description = "BUY or SELL") @RequestParam Optional<String> side,
                             @Parameter(description = "fills at or after, e.g. 2026-11-22T00:00:00Z") @RequestParam Optional<String> from,
                             @Parameter(description = "fills before") @RequestParam Optional<String> to,
                             @Parameter(description = "1-based page") @RequestParam Optional<String> page,
                             @Parameter(description = "hits per page, 1-100 (default 50)") @RequestParam Optional<String> size) {
        return search.trades(query(customer, symbol, side, Optional.empty(), Optional.empty(), from, to, page, size));
    }

    @GetMapping("/api/orders/search")
    @SecurityRequirement(name = OpenApiConfiguration.BEARER)
    @Operation(summary = "The customer's own orders, newest placement first, from every region",
            description = "Filters combine; from/to apply to the placement time. An order seen by two regions (placed in one, "
                    + "filled in the other) is shown once, in its later state.")
    FanOutSearch.Page orders(Principal customer,
                             @RequestParam Optional<String> symbol,
                             @Parameter(description = "BUY or SELL") @RequestParam Optional<String> side,
                             @Parameter(description = "OPEN, FILLED, CANCELLED or EXPIRED") @RequestParam Optional<String> status,
                             @Parameter(description = "LIMIT, STOP or MARKET") @RequestParam Optional<String> type,
                             @RequestParam Optional<String> from, @RequestParam Optional<String> to,
                             @RequestParam Optional<String> page, @RequestParam Optional<String> size) {
        return search.orders(query(customer, symbol, side, status, type, from, to, page, size));
    }

    @GetMapping("/admin/search/analytics")
    @Operation(summary = "Operator analytics over every region's trades",
            description = "Per interval: trade count, quantity and notional by symbol and filling region, VWAP per symbol "
                    + "(over all regions), the top symbols by quantity, and fill-latency percentiles (tick to durable) per region. "
                    + "Defaults: the last hour in 1m intervals.")
    Analytics analytics(@Parameter(description = "window start (default: to - 1h)") @RequestParam Optional<String> from,
                        @Parameter(description = "window end (default: now)") @RequestParam Optional<String> to,
                        @Parameter(description = "bucket width: 30s, 1m, 5m, 1h, 1d") @RequestParam Optional<String> interval,
                        @Parameter(description = "how many top symbols (1-100, default 10)") @RequestParam Optional<String> top) {
        Instant end = to.map(v -> instant("to", v)).orElseGet(Instant::now);
        Instant start = from.map(v -> instant("from", v)).orElse(end.minus(Duration.ofHours(1)));
        if (!start.isBefore(end)) {
            throw new SearchProblem.Invalid("from must be before to");
        }
        Duration width = interval.map(SearchController::interval).orElse(Duration.ofMinutes(1));
        if (Duration.between(start, end).dividedBy(width) > MAX_BUCKETS) {
            throw new SearchProblem.Invalid("from-to spans more than " + MAX_BUCKETS + " intervals of " + width.toSeconds() + " s: widen the interval");
        }
        return search.analytics(start, end, width, number("top", top, 1, 100, 10));
    }

    @PostMapping("/admin/search/reindex")
    @Operation(summary = "Rebuild this region's indices as a new version from Cassandra, then switch reads to it",
            description = "No downtime: searches read the old version until one atomic alias switch; events keep flowing into both meanwhile.")
    Reindexer.Report reindex() throws IOException, InterruptedException {
        return reindexer.run();
    }

    private SearchQuery query(Principal customer, Optional<String> symbol, Optional<String> side, Optional<String> status,
                              Optional<String> type, Optional<String> from, Optional<String> to, Optional<String> page, Optional<String> size) {
        symbol.ifPresent(s -> {
            if (!SYMBOL.matcher(s).matches()) {
                throw new SearchProblem.Invalid("symbol must be 1-12 capital letters, digits, '.' or '-', was '" + Excerpt.of(s) + "'");
            }
        });
        oneOf("side", side, Set.of("BUY", "SELL"));
        oneOf("status", status, Set.of("OPEN", "FILLED", "CANCELLED", "EXPIRED"));
        oneOf("type", type, Set.of("LIMIT", "STOP", "MARKET"));
        Optional<Instant> start = from.map(v -> instant("from", v));
        Optional<Instant> end = to.map(v -> instant("to", v));
        if (start.isPresent() && end.isPresent() && !start.get().isBefore(end.get())) {
            throw new SearchProblem.Invalid("from must be before to");
        }
        return new SearchQuery(customer.getName(), symbol, side, status, type, start, end,
                number("page", page, 1, properties.maxPage(), 1), number("size", size, 1, MAX_SIZE, DEFAULT_SIZE));
    }

    private static void oneOf(String name, Optional<String> value, Set<String> allowed) {
        value.ifPresent(v -> {
            if (!allowed.contains(v)) {
                throw new SearchProblem.Invalid(name + " must be one of " + allowed.stream().sorted().toList() + ", was '" + Excerpt.of(v) + "'");
            }
        });
    }

    private static Instant instant(String name, String value) {
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw new SearchProblem.Invalid(name + " must be an ISO-8601 instant such as 2026-11-22T09:30:00Z, was '" + Excerpt.of(value) + "'");
        }
    }

    private static int number(String name, Optional<String> value, int min, int max, int absent) {
        if (value.isEmpty()) {
            return absent;
        }
        try {
            int n = Integer.parseInt(value.get());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // fall through to the one message
        }
        throw new SearchProblem.Invalid(name + " must be a whole number from " + min + " to " + max + ", was '" + Excerpt.of(value.get()) + "'");
    }

    private static Duration interval(String value) {
        Matcher m = INTERVAL.matcher(value);
        if (!m.matches()) {
            throw new SearchProblem.Invalid("interval must be a number and a unit (s, m, h, d), e.g. 1m; was '" + Excerpt.of(value) + "'");
        }
        long n = Long.parseLong(m.group(1));
        Duration d = switch (m.group(2)) {
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
        if (d.compareTo(Duration.ofSeconds(10)) < 0) {
            throw new SearchProblem.Invalid("interval must be at least 10s, was '" + Excerpt.of(value) + "'");
        }
        return d;
    }
}
