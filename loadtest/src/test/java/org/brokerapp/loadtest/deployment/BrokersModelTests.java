package org.brokerapp.loadtest.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

import org.brokerapp.regions.RegionsFile;
import org.brokerapp.regions.RegionsModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrokersModelTests {

    @TempDir
    Path dir;

    @Test
    void theBrokersGetTheStacksNodesPerDcAndSoItsReplication() {
        RegionsModel stack = RegionsFile.load().withCassandraNodesPerRegion(3);

        Path file = BrokersModel.write(Optional.empty(), OptionalInt.of(3), stack, dir.resolve("brokers-regions.yaml"));

        assertThat(RegionsFile.load(file).replicationFactors()).isEqualTo(stack.replicationFactors()).containsValue(3);
        assertThat(RegionsFile.load(file).names()).isEqualTo(stack.names());
    }

    @Test
    void withoutAnOverrideTheyGetThePackagedModel() {
        Path file = BrokersModel.write(Optional.empty(), OptionalInt.empty(), RegionsFile.load(), dir.resolve("m.yaml"));

        assertThat(RegionsFile.load(file).replicationFactors()).isEqualTo(RegionsFile.load().replicationFactors());
    }

    @Test
    void aModelThatDisagreesWithTheStackIsRefused() {
        assertThatThrownBy(() -> BrokersModel.write(Optional.empty(), OptionalInt.empty(), RegionsFile.load().withCassandraNodesPerRegion(3),
                dir.resolve("m.yaml"))).isInstanceOf(IllegalStateException.class).hasMessageContaining("replicates");
    }
}
