package org.brokerapp.broker.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Random;

import org.brokerapp.ticker.Tick;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PriceUnitsTests {

    @ParameterizedTest(name = "{0} is {1} units")
    @CsvSource(delimiter = '|', textBlock = """
            187.44                | 1874400
            0.465                 | 4650
            0.0001                | 1
            100                   | 1000000
            100.00010             | 1000001
            1E+2                  | 1000000
            922337203685477.5807  | 9223372036854775807
            """)
    void aPriceIsAnExactNumberOfTenThousandths(BigDecimal price, long units) {
        assertThat(PriceUnits.of(price)).isEqualTo(units);
        assertThat(PriceUnits.SCALE).isEqualTo(10_000);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            0.00001
            187.44001
            1.23456789
            922337203685477.5808
            1E+20
            """)
    void aPriceThatFourDecimalsCannotHoldIsRefusedRatherThanRounded(BigDecimal price) {
        assertThatThrownBy(() -> PriceUnits.of(price)).isInstanceOf(ArithmeticException.class);
    }

    /** One price-unit rule: the tick format and the matcher agree, so a tick the feed may publish never fails in the matcher. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            0.0001
            187.4400
            99999999999999.9999
            99999999999999
            """)
    void everyPriceATickMayCarryIsAPriceTheMatcherHolds(BigDecimal price) {
        Tick tick = new Tick("AAPL", "NASDAQ", price, 1, 1, Instant.EPOCH);
        assertThat(PriceUnits.of(tick.price())).isPositive();
        assertThat(PriceUnits.DECIMALS).isEqualTo(Tick.MAX_PRICE_SCALE);
    }

    /** The finding: a 5-decimal tick used to pass the format, set the last price, then fail in the matcher ("Rounding necessary"). */
    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            187.44001
            999999999999999999
            """)
    void aPriceTheMatcherCannotHoldIsNotATick(BigDecimal price) {
        assertThatThrownBy(() -> new Tick("AAPL", "NASDAQ", price, 1, 1, Instant.EPOCH))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most 4 decimals and 14 digits before the point");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(textBlock = """
            0
            0.0000
            -0.00001
            -187.44
            """)
    void aPriceMustBePositive(BigDecimal price) {
        assertThatThrownBy(() -> PriceUnits.of(price))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a price must be > 0, was " + price.toPlainString());
    }

    @ParameterizedTest(name = "{0} units is {1}")
    @CsvSource(delimiter = '|', textBlock = """
            1874400 | 187.44
            4650    | 0.465
            1000000 | 100.00
            1       | 0.0001
            12345   | 1.2345
            1000010 | 100.001
            """)
    void unitsReadBackAsAPriceWithAtLeastTwoDecimals(long units, String price) {
        assertThat(PriceUnits.toDecimal(units).toPlainString()).isEqualTo(price);
        assertThat(PriceUnits.of(PriceUnits.toDecimal(units))).isEqualTo(units);
    }

    @Test
    void everyUnitCountSurvivesTheRoundTrip() {
        Random random = new Random(7);
        for (int i = 0; i < 100_000; i++) {
            long units = 1 + (random.nextLong() & Long.MAX_VALUE) % (Long.MAX_VALUE - 1);
            assertThat(PriceUnits.of(PriceUnits.toDecimal(units))).isEqualTo(units);
        }
        assertThat(PriceUnits.of(PriceUnits.toDecimal(Long.MAX_VALUE))).isEqualTo(Long.MAX_VALUE);
    }
}
