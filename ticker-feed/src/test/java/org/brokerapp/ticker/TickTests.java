package org.brokerapp.ticker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TickTests {

    private static final Instant TIME = Instant.parse("2025-11-21T14:30:00.123456Z");

    @ParameterizedTest(name = "{0},{1},{2},{3},{4},{5}")
    @CsvSource(nullValues = "null", textBlock = """
            # symbol,       exchange, price,  size, seq, time,                    expected message
            aapl,           NASDAQ,   1.00,   1,    1,   2025-11-21T14:30:00Z,    symbol must be A-Z
            .AB,            NASDAQ,   1.00,   1,    1,   2025-11-21T14:30:00Z,    symbol must be A-Z
            ABCDEFGHIJKLM,  NASDAQ,   1.00,   1,    1,   2025-11-21T14:30:00Z,    symbol must be 1 to 12 characters
            null,           NASDAQ,   1.00,   1,    1,   2025-11-21T14:30:00Z,    symbol must be 1 to 12 characters
            AAPL,           '',       1.00,   1,    1,   2025-11-21T14:30:00Z,    exchange must be 1 to 16 characters
            AAPL,           NAS DAQ,  1.00,   1,    1,   2025-11-21T14:30:00Z,    exchange must be A-Z
            AAPL,           NASDAQ,   0,      1,    1,   2025-11-21T14:30:00Z,    price must be > 0
            AAPL,           NASDAQ,   -0.01,  1,    1,   2025-11-21T14:30:00Z,    price must be > 0
            AAPL,           NASDAQ,   null,   1,    1,   2025-11-21T14:30:00Z,    price must be > 0
            AAPL,           NASDAQ,   0.00001, 1,   1,   2025-11-21T14:30:00Z,    at most 4 decimals
            AAPL,           NASDAQ,   187.44001, 1, 1,   2025-11-21T14:30:00Z,    at most 4 decimals
            AAPL,           NASDAQ,   1.00,   0,    1,   2025-11-21T14:30:00Z,    size must be > 0
            AAPL,           NASDAQ,   1.00,   1,    0,   2025-11-21T14:30:00Z,    sequence must be >= 1
            AAPL,           NASDAQ,   1.00,   1,    1,   null,                    event time must be between 1970
            AAPL,           NASDAQ,   1.00,   1,    1,   1969-12-31T23:59:59Z,    event time must be between 1970
            """)
    void aTickWithAnImpossibleValueIsRefusedInOneLine(String symbol, String exchange, BigDecimal price, long size, long sequence,
                                                     Instant time, String expected) {
        assertThatThrownBy(() -> new Tick(symbol, exchange, price, size, sequence, time))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(expected)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void symbolsOfEveryKindInTheUniverseAreValid() {
        assertThat(new Tick("BRK.B", "NYSE", new BigDecimal("480.00"), 100, 1, TIME).symbol()).isEqualTo("BRK.B");
        assertThat(new Tick("29M", "ASX", new BigDecimal("1.995"), 100, 1, TIME).symbol()).isEqualTo("29M");
    }

    @Test
    void theEventTimeKeepsMicrosecondsAndDropsFinerDigits() {
        Tick tick = new Tick("AAPL", "NASDAQ", new BigDecimal("187.44"), 100, 1, Instant.parse("2025-11-21T14:30:00.123456789Z"));

        assertThat(tick.eventTime()).isEqualTo(TIME);
        assertThat(tick.eventTimeMicros()).isEqualTo(1_763_735_400_123_456L);
    }

    @Test
    void aPriceWithANegativeScaleIsKeptAsTheWholeNumberItMeans() {
        Tick tick = new Tick("AAPL", "NASDAQ", new BigDecimal("2E+2"), 100, 1, TIME);

        assertThat(tick.price()).isEqualTo(new BigDecimal("200"));
    }
}
