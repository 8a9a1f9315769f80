package org.brokerapp.broker.system;

import java.nio.file.Path;

import org.brokerapp.regions.Region;
import org.brokerapp.regions.RegionsFile;
import org.brokerapp.regions.RegionsModel;
import org.brokerapp.regions.SymbolUniverse;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The regions model and symbol universe every module shares, and which region this broker is. */
@Configuration(proxyBeanMethods = false)
class RegionsConfiguration {

    @Bean
    RegionsModel regionsModel(BrokerProperties properties) {
        return properties.regionsFile().isBlank() ? RegionsFile.load() : RegionsFile.load(Path.of(properties.regionsFile()));
    }

    @Bean
    Region localRegion(RegionsModel regions, BrokerProperties properties) {
        return regions.region(properties.region());
    }

    @Bean
    SymbolUniverse symbolUniverse(RegionsModel regions) {
        SymbolUniverse universe = SymbolUniverse.loadDefault();
        universe.requireHomes(regions);
        return universe;
    }
}
