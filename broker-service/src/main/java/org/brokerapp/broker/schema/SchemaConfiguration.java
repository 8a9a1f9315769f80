package org.brokerapp.broker.schema;

import com.datastax.oss.driver.api.core.CqlSession;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.regions.RegionsModel;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Migrates the keyspace before anything prepares a statement against it. */
@Configuration(proxyBeanMethods = false)
class SchemaConfiguration {

    @Bean
    BrokerCql brokerCql(CqlSession session, RegionsModel regions, BrokerProperties properties) {
        new SchemaMigrations(session, properties.keyspace(), regions.networkTopologyReplication(), "broker " + properties.region()).migrate();
        return new BrokerCql(session, properties.keyspace());
    }
}
