package org.brokerapp.ticker.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TickSizesTests {

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource(textBlock = """
            # exchange, model price,   rounded, increment there
            NYSE,       187.444,       187.44,  0.01
            NYSE,       187.445001,    187.45,  0.01
            NASDAQ,     230,           230.00,  0.01
            NASDAQ,     0.98765,       0.9877,  0.0001
            NASDAQ,     0.99996,       1.00,    0.01
            NYSE,       0.00001,       0.0001,  0.0001
            NYSE,       0,             0.0001,  0.0001
            NYSE,       -5,            0.0001,  0.0001
            ASX,        42.504,        42.50,   0.01
            ASX,        1.9963,        1.995,   0.005
            ASX,        1.9976,        2.00,    0.01
            ASX,        0.9012,        0.900,   0.005
            ASX,        0.1024,        0.100,   0.005
            ASX,        0.0876,        0.088,   0.001
            ASX,        0.0000001,     0.001,   0.001
            LSE,        12.345678,     12.35,   0.01
            """)
    void pricesRoundToTheNearestIncrementOfTheExchangeAndNeverToZero(String exchange, double price, BigDecimal rounded, BigDecimal increment) {
        BigDecimal result = TickSizes.of(exchange).round(price);

        assertThat(result).isEqualTo(rounded);
        assertThat(result.signum()).isPositive();
        assertThat(TickSizes.of(exchange).increment(result)).isEqualTo(increment);
        assertThat(result.remainder(increment).signum()).isZero();
    }
}
