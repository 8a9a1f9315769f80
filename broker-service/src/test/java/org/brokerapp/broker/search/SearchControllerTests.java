package org.brokerapp.broker.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.http.HttpStatus;

/** Bad search parameters are refused (400, problem+json through ProblemDetailsAdvice) before any region is asked. */
class SearchControllerTests {

    private final ExecutorService executor = Executors.newSingleThreadExecutor();
    private final SearchController controller = new SearchController(new FanOutSearch(List.of(), Duration.ofSeconds(1), executor), null,
            new SearchProperties(Map.of(), new SearchProperties.Indexer(true, "order-events", "", 100, Duration.ofMillis(100), Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ZERO),
                    Duration.ofSeconds(1), Duration.ofDays(30), 20, "", "", ""));
    private final Principal alice = () -> "alice";

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
            "symbol|ibm|symbol must be 1-12 capital letters",
            "symbol|IBM;DROP|symbol must be",
            "side|buy|side must be one of [BUY, SELL]",
            "from|yesterday|from must be an ISO-8601 instant",
            "to|2026-11-22|to must be an ISO-8601 instant",
            "page|0|page must be a whole number from 1 to 20",
            "page|21|page must be a whole number from 1 to 20",
            "page|x|page must be a whole number",
            "size|101|size must be a whole number from 1 to 100",
            "range|reversed|from must be before to"})
    void aBadTradeSearchIsA400WithWhatToFix(String name, String value, String message) {
        Optional<String> symbol = name.equals("symbol") ? Optional.of(value) : Optional.empty();
        Optional<String> side = name.equals("side") ? Optional.of(value) : Optional.empty();
        Optional<String> from = name.equals("from") ? Optional.of(value)
                : name.equals("range") ? Optional.of("2026-11-22T10:00:00Z") : Optional.empty();
        Optional<String> to = name.equals("to") ? Optional.of(value)
                : name.equals("range") ? Optional.of("2026-11-22T09:00:00Z") : Optional.empty();
        Optional<String> page = name.equals("page") ? Optional.of(value) : Optional.empty();
        Optional<String> size = name.equals("size") ? Optional.of(value) : Optional.empty();

        assertThatThrownBy(() -> controller.trades(alice, symbol, side, from, to, page, size))
                .isInstanceOfSatisfying(SearchProblem.Invalid.class, p -> assertThat(p.status()).isEqualTo(HttpStatus.BAD_REQUEST))
                .hasMessageContaining(message);
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', value = {
            "status|DONE|status must be one of [CANCELLED, EXPIRED, FILLED, OPEN]",
            "type|ICEBERG|type must be one of [LIMIT, MARKET, STOP]"})
    void aBadOrderSearchIsA400(String name, String value, String message) {
        assertThatThrownBy(() -> controller.orders(alice, Optional.empty(), Optional.empty(),
                name.equals("status") ? Optional.of(value) : Optional.empty(), name.equals("type") ? Optional.of(value) : Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty()))
                .isInstanceOf(SearchProblem.Invalid.class).hasMessageContaining(message);
    }

    @ParameterizedTest(name = "interval={0}")
    @CsvSource(delimiter = '|', value = {"1x|interval must be a number and a unit", "5s|interval must be at least 10s", "10s|more than 1440 intervals"})
    void badAnalyticsWindowsAre400s(String interval, String message) {
        Instant to = Instant.parse("2026-11-22T12:00:00Z");
        assertThatThrownBy(() -> controller.analytics(Optional.of(to.minus(Duration.ofDays(1)).toString()), Optional.of(to.toString()),
                Optional.of(interval), Optional.empty()))
                .isInstanceOf(SearchProblem.Invalid.class).hasMessageContaining(message);
    }

    @org.junit.jupiter.api.Test
    void withNoRegionAnsweringTheSearchIsA503() {
        assertThatThrownBy(() -> controller.trades(alice, Optional.of("IBM"), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty()))
                .isInstanceOfSatisfying(SearchProblem.Unavailable.class, p -> assertThat(p.status()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE));
    }
}
