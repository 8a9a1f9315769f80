package org.brokerapp.broker;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** One regional broker; which region is configuration ({@code broker.region}, or the region's profile). */
@SpringBootApplication
@ConfigurationPropertiesScan
public class BrokerApplication {

    public static void main(String[] args) {
        SpringApplication.run(BrokerApplication.class, args);
    }
}
