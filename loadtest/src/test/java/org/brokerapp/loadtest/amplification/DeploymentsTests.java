package org.brokerapp.loadtest.amplification;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.brokerapp.regions.Region;
import org.brokerapp.regions.RegionsFile;
import org.brokerapp.regions.RegionsModel;
import org.brokerapp.regions.SymbolUniverse;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DeploymentsTests {

    @ParameterizedTest(name = "{0} DC(s)")
    @ValueSource(ints = {1, 2, 3})
    void eachDeploymentIsAValidRegionsFileWithOneReplicaPerDcAndNyseTradedInNorthVirginia(int dcs, @TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("regions.yaml"), Deployments.regionsYaml(dcs));

        RegionsModel model = RegionsFile.load(file);

        assertThat(model.regions()).hasSize(dcs);
        assertThat(model.replicationFactors().values()).containsOnly(1);
        assertThat(model.homeOf(Deployments.TRADED_EXCHANGE)).map(Region::name).hasValue(Deployments.TRADING_REGION);
        SymbolUniverse.loadDefault().requireHomes(model);
        assertThat(SymbolUniverse.loadDefault().homedIn(model.region(Deployments.TRADING_REGION)))
                .anyMatch(l -> l.exchange().equals(Deployments.TRADED_EXCHANGE));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 4})
    void onlyOneToThreeDcsAreOnOffer(int dcs) {
        assertThatThrownBy(() -> Deployments.regionsYaml(dcs)).isInstanceOf(IllegalArgumentException.class);
    }
}
