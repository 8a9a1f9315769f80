package org.brokerapp.ticker.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ZipfPopularityTests {

    @Test
    void exponentZeroGivesEverySymbolTheSameShare() {
        ZipfPopularity uniform = new ZipfPopularity(4, 0);

        for (int rank = 0; rank < 4; rank++) {
            assertThat(uniform.share(rank)).isCloseTo(0.25, within(1e-12));
        }
        assertThat(uniform.sample(0.0)).isZero();
        assertThat(uniform.sample(0.25)).isEqualTo(1);
        assertThat(uniform.sample(0.999999)).isEqualTo(3);
    }

    @Test
    void sharesFallWithRankAsOneOverRankToTheExponent() {
        ZipfPopularity zipf = new ZipfPopularity(100, 1.0);

        assertThat(zipf.share(0) / zipf.share(1)).isCloseTo(2.0, within(1e-9));
        assertThat(zipf.share(0) / zipf.share(9)).isCloseTo(10.0, within(1e-9));
    }

    @ParameterizedTest
    @CsvSource({"5, -0.1", "5, 10.5", "5, NaN", "0, 1"})
    void impossibleSettingsAreRefused(int symbols, double exponent) {
        assertThatThrownBy(() -> new ZipfPopularity(symbols, exponent)).isInstanceOf(IllegalArgumentException.class);
    }
}
