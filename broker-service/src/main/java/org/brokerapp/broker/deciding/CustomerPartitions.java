package org.brokerapp.broker.deciding;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.utils.Utils;

/** Which partition of the {@code customers} topic a customer belongs to: Kafka's own partitioner for a String key. */
public final class CustomerPartitions {

    private CustomerPartitions() {
    }

    public static int of(String customerId, int partitions) {
        return Utils.toPositive(Utils.murmur2(customerId.getBytes(StandardCharsets.UTF_8))) % partitions;
    }
}
