package org.brokerapp.broker.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;

import org.junit.jupiter.api.Test;

/** The one collar rule: the decider's bound never above what the owner reserved for the same price. */
class PriceCollarTests {

    private static final PriceCollar COLLAR = new PriceCollar(new BigDecimal("0.10"));

    @Test
    void theBoundRoundsDownAndTheCoverUpSoAFillAtTheBoundIsAlwaysCovered() {
        BigDecimal price = new BigDecimal("33.33333");

        assertThat(COLLAR.bound(price)).isEqualByComparingTo("36.6666");
        assertThat(COLLAR.cover(price)).isEqualByComparingTo("36.6667");
        assertThat(COLLAR.bound(new BigDecimal("100.00"))).isEqualByComparingTo(COLLAR.cover(new BigDecimal("100.00"))).isEqualByComparingTo("110");
    }
}
