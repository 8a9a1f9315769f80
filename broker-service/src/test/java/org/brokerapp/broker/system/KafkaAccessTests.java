package org.brokerapp.broker.system;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.brokerapp.broker.deciding.AccountOwnership;
import org.brokerapp.broker.events.EventTopics;
import org.brokerapp.broker.relay.EventRelay;
import org.brokerapp.broker.search.OrderEventIndexer;
import org.brokerapp.infra.servers.KafkaAccess;
import org.brokerapp.ticker.Topics;
import org.junit.jupiter.api.Test;

/** The local stack's ACL table grants a broker exactly the topics and groups its code uses, and the feed only ticks. */
class KafkaAccessTests {

    private static final String REGION = "us-east-1";
    private static final String OTHER = "ap-southeast-2";
    private static final String BROKER = KafkaAccess.broker(REGION);

    private final List<KafkaAccess.Grant> grants = KafkaAccess.grants(REGION);

    @Test
    void aBrokerMayUseEveryTopicItsCodeNames() {
        assertThat(allowed(BROKER, ResourceType.TOPIC, Topics.TICKS, AclOperation.READ)).isTrue();
        assertThat(allowed(BROKER, ResourceType.TOPIC, Topics.TICKS_DEAD_LETTER, AclOperation.WRITE)).isTrue();
        assertThat(allowed(BROKER, ResourceType.TOPIC, Topics.TICKS_DEAD_LETTER, AclOperation.CREATE)).isTrue();
        for (AclOperation operation : List.of(AclOperation.CREATE, AclOperation.WRITE, AclOperation.READ)) {
            assertThat(allowed(BROKER, ResourceType.TOPIC, EventTopics.ORDER_EVENTS, operation)).as("order-events %s", operation).isTrue();
        }
        assertThat(allowed(BROKER, ResourceType.TOPIC, AccountOwnership.TOPIC, AclOperation.CREATE)).isTrue();
        assertThat(allowed(BROKER, ResourceType.TOPIC, AccountOwnership.TOPIC, AclOperation.READ)).isTrue();
    }

    @Test
    void aBrokerJoinsEveryGroupOfItsRegionAndNoneOfAnother() {
        BrokerProperties properties = new BrokerProperties(REGION, "", "broker", new BrokerProperties.Kafka("h:1", "", 8192,
                java.time.Duration.ofSeconds(10), "", "", "", ""), null, null, "", null, null, null, List.of(), 0);
        for (String group : List.of(properties.consumerGroup(), AccountOwnership.group(REGION), OrderEventIndexer.defaultGroup(REGION),
                EventRelay.group(REGION, REGION), EventRelay.group(REGION, OTHER))) {
            assertThat(allowed(BROKER, ResourceType.GROUP, group, AclOperation.READ)).as(group).isTrue();
        }
        for (String group : List.of("broker-" + OTHER, AccountOwnership.group(OTHER), OrderEventIndexer.defaultGroup(OTHER),
                EventRelay.group(OTHER, REGION))) {
            assertThat(allowed(BROKER, ResourceType.GROUP, group, AclOperation.READ)).as(group).isFalse();
        }
    }

    @Test
    void onlyTheFeedWritesTicks() {
        assertThat(grants).filteredOn(g -> g.type() == ResourceType.TOPIC && g.name().equals(Topics.TICKS) && g.operation() == AclOperation.WRITE)
                .extracting(KafkaAccess.Grant::principal).containsExactly(KafkaAccess.FEED);
        assertThat(grants).filteredOn(g -> g.principal().equals(KafkaAccess.FEED))
                .allSatisfy(g -> assertThat(g.name()).isEqualTo(Topics.TICKS));
    }

    private boolean allowed(String principal, ResourceType type, String name, AclOperation operation) {
        return grants.stream().anyMatch(g -> g.principal().equals(principal) && g.type() == type && g.operation() == operation
                && (g.pattern() == PatternType.PREFIXED ? name.startsWith(g.name()) : name.equals(g.name())));
    }
}
