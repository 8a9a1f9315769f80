package org.brokerapp.ticker.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.brokerapp.regions.Listing;
import org.brokerapp.regions.RegionsFile;
import org.brokerapp.regions.RegionsModel;
import org.brokerapp.regions.SymbolUniverse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PartitionSpreadTests {

    private static final RegionsModel REGIONS = RegionsFile.loadDefault();
    private static final SymbolUniverse UNIVERSE = SymbolUniverse.loadDefault();

    @ParameterizedTest
    @CsvSource({"1", "3", "12", "64"})
    void aKeyGoesToThePartitionKafkasProducerChooses(int partitions) {
        for (Listing listing : UNIVERSE.listings()) {
            byte[] key = listing.symbol().getBytes(StandardCharsets.UTF_8);
            assertThat(PartitionSpread.partitionOf(listing.symbol(), partitions))
                    .as(listing.symbol()).isEqualTo(BuiltInPartitioner.partitionForKey(key, partitions));
        }
    }

    @Test
    void theReportCountsMinMaxMeanAndTheRatioOfMaxToMean() {
        PartitionSpread spread = PartitionSpread.of(new long[] {2, 4, 6, 0});

        assertThat(spread.total()).isEqualTo(12);
        assertThat(spread.min()).isZero();
        assertThat(spread.max()).isEqualTo(6);
        assertThat(spread.mean()).isEqualTo(3.0);
        assertThat(spread.maxOverMean()).isEqualTo(2.0);
        assertThat(spread.describe()).isEqualTo("min 0, max 6, mean 3.0, max/mean 2.00");
        assertThat(spread.keyWarning()).startsWith("1 of 4 partitions get no key");
    }

    @ParameterizedTest(name = "{0} over {1} partitions")
    @CsvSource({"us-east-1, 12, 1.4", "ap-southeast-2, 12, 1.6", "us-east-1, 6, 1.3"})
    void theHomeSymbolsOfEachRegionSpreadEvenlyOverTheDefaultPartitions(String region, int partitions, double atMost) {
        List<String> symbols = UNIVERSE.homedIn(REGIONS.region(region)).stream().map(Listing::symbol).toList();

        PartitionSpread spread = PartitionSpread.ofKeys(symbols, partitions);

        assertThat(spread.total()).isEqualTo(symbols.size());
        assertThat(spread.emptyPartitions()).isZero();
        assertThat(spread.maxOverMean()).isLessThan(atMost);
        assertThat(spread.keyWarning()).isEmpty();
    }

    @Test
    void fewKeysOverManyPartitionsAreFlagged() {
        PartitionSpread spread = PartitionSpread.ofKeys(List.of("AAPL", "MSFT", "NVDA", "AMZN", "GOOGL", "META", "TSLA", "JPM"), 4);

        assertThat(spread.mean()).isCloseTo(2.0, within(1e-9));
        assertThat(spread.keyWarning()).isNotEmpty();
    }
}
