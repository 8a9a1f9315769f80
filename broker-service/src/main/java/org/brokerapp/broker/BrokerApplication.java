package org.brokerapp.broker;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** One regional broker; which region is configuration ({@code broker.region}, or the region's profile). */
@SpringBootApplication
@ConfigurationPropertiesScan
public class BrokerApplication {

    public static void main(String[] args) {
        useNettysPooledAllocator();
        SpringApplication.run(BrokerApplication.class, args);
    }

    /**
     * Netty 4.2's default allocator ({@code adaptive}) was seen to corrupt a Cassandra driver frame
     * at start-up here ({@code DecoderException: IndexOutOfBoundsException}, netty/netty#15631, open);
     * the pooled allocator, 4.1's default, has no such report. An explicit setting still wins.
     */
    static void useNettysPooledAllocator() {
        if (System.getProperty("io.netty.allocator.type") == null) {
            System.setProperty("io.netty.allocator.type", "pooled");
        }
    }
}
