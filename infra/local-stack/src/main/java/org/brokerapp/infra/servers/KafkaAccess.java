package org.brokerapp.infra.servers;

import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Who may do what on a region's Kafka: the one table of principal to (resource, operation). Anything
 * not granted here is refused ({@code allow.everyone.if.no.acl.found=false}); {@value #ADMIN} is a
 * super user for the stack's own work and the tests' inspection, and needs no grant.
 *
 * <p>Only the feed writes {@code ticks} (a forged tick moves money, issue #12). A region's Kafka
 * knows only that region's brokers, and each may join only its own region's consumer groups.
 * Topic and group names are the broker's and the feed's ({@code KafkaAccessTests} in
 * broker-service holds them to this table).
 */
public final class KafkaAccess {

    public static final String ADMIN = "admin";
    public static final String FEED = "feed";

    static final String TICKS = "ticks";
    static final String TICKS_DEAD_LETTER = "ticks.dead-letter";
    static final String ORDER_EVENTS = "order-events";
    static final String CUSTOMERS = "customers";

    /** One permission: {@code principal} may do {@code operation} on the resource. */
    public record Grant(String principal, ResourceType type, String name, PatternType pattern, AclOperation operation) {

        AclBinding binding() {
            return new AclBinding(new ResourcePattern(type, name, pattern),
                    new AccessControlEntry("User:" + principal, "*", operation, AclPermissionType.ALLOW));
        }
    }

    private KafkaAccess() {
    }

    /** The principal of a region's brokers. */
    public static String broker(String region) {
        return "broker-" + region;
    }

    /** The principals a region's Kafka knows. */
    public static List<String> principals(String region) {
        return List.of(ADMIN, FEED, broker(region));
    }

    /** Every principal of a stack (the password files written for it). */
    public static List<String> principals(List<String> regions) {
        List<String> all = new ArrayList<>(List.of(ADMIN, FEED));
        regions.forEach(r -> all.add(broker(r)));
        return all;
    }

    /** The grants of a region's Kafka. */
    public static List<Grant> grants(String region) {
        String broker = broker(region);
        List<Grant> grants = new ArrayList<>();
        // the feed creates its topic with its own partition layout, then writes ticks: nothing else
        topic(grants, FEED, TICKS, AclOperation.CREATE, AclOperation.DESCRIBE, AclOperation.WRITE);
        // the matcher reads ticks (and their end offsets, for its lag); refused ones go to the dead letters
        topic(grants, broker, TICKS, AclOperation.DESCRIBE, AclOperation.READ);
        topic(grants, broker, TICKS_DEAD_LETTER, AclOperation.CREATE, AclOperation.DESCRIBE, AclOperation.WRITE);
        // the order path's topics: created by the broker, written on placement, read by relay, indexer and account owners
        topic(grants, broker, ORDER_EVENTS, AclOperation.CREATE, AclOperation.DESCRIBE, AclOperation.WRITE, AclOperation.READ);
        topic(grants, broker, CUSTOMERS, AclOperation.CREATE, AclOperation.DESCRIBE, AclOperation.READ);
        // the region's consumer groups: matching, account owners, the indexer, one relay per destination region
        for (String group : List.of("broker-" + region, "accounts-" + region, "search-indexer-" + region)) {
            group(grants, broker, group, PatternType.LITERAL);
        }
        group(grants, broker, "relay-" + region + "-to-", PatternType.PREFIXED);
        return List.copyOf(grants);
    }

    public static List<AclBinding> bindings(String region) {
        return grants(region).stream().map(Grant::binding).toList();
    }

    private static void topic(List<Grant> grants, String principal, String topic, AclOperation... operations) {
        for (AclOperation operation : operations) {
            grants.add(new Grant(principal, ResourceType.TOPIC, topic, PatternType.LITERAL, operation));
        }
    }

    private static void group(List<Grant> grants, String principal, String group, PatternType pattern) {
        // READ joins the group and commits; DESCRIBE reads its offsets (the tick lag)
        for (AclOperation operation : List.of(AclOperation.READ, AclOperation.DESCRIBE)) {
            grants.add(new Grant(principal, ResourceType.GROUP, group, pattern, operation));
        }
    }
}
