package org.brokerapp.k8s;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.apache.kafka.common.resource.PatternType;
import org.brokerapp.infra.KafkaAccess;
import org.brokerapp.regions.Region;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kafka in Kubernetes grants what the local stack grants: each overlay's KafkaUsers carry exactly
 * infra's {@link KafkaAccess} table for the region (the feed's and the region's brokers'), the
 * clients' listener takes SCRAM-SHA-512 logins over TLS with the ACLs enforced, and the feed and the
 * brokers log in as those users with the passwords Strimzi's User Operator writes, trusting the
 * cluster CA from the Secret Strimzi writes.
 */
class KafkaAccessAgreementIT {

    /** The Secret Strimzi writes for the Kafka "kafka": its cluster CA's certificate, PKCS12 store and the store's password. */
    private static final String CLUSTER_CA = "kafka-cluster-ca-cert";

    /** One ACL entry, as both sides can spell it. */
    record Acl(String principal, String type, String name, String pattern, String operation) {
    }

    @Test
    void eachOverlaysKafkaUsersGrantExactlyTheAccessTable() {
        for (Region region : RegionsModelAgreementIT.MODEL.regions()) {
            List<ObjectNode> objects = K8sTools.objects(K8sTools.build(K8sTools.K8S.resolve("overlays").resolve(region.name())));
            Set<Acl> granted = new HashSet<>();
            Set<String> users = new HashSet<>();
            for (ObjectNode user : K8sTools.ofKind(objects, "KafkaUser")) {
                String name = user.path("metadata").path("name").asString();
                users.add(name);
                assertThat(user.path("metadata").path("labels").path("strimzi.io/cluster").asString()).as(name).isEqualTo("kafka");
                assertThat(user.path("spec").path("authentication").path("type").asString()).as(name).isEqualTo("scram-sha-512");
                assertThat(user.path("spec").path("authorization").path("type").asString()).as(name).isEqualTo("simple");
                for (JsonNode acl : user.path("spec").path("authorization").path("acls")) {
                    JsonNode resource = acl.path("resource");
                    for (JsonNode operation : acl.path("operations")) {
                        granted.add(new Acl(name, resource.path("type").asString(), resource.path("name").asString(),
                                resource.path("patternType").asString("literal"), operation.asString()));
                    }
                }
            }
            Set<Acl> table = new HashSet<>();
            for (KafkaAccess.Grant grant : KafkaAccess.grants(region.name())) {
                table.add(new Acl(grant.principal(), grant.type().name().toLowerCase(Locale.ROOT), grant.name(),
                        grant.pattern() == PatternType.PREFIXED ? "prefix" : "literal", camel(grant.operation().name())));
            }
            assertThat(users).as(region.name() + " KafkaUsers").containsExactlyInAnyOrder(KafkaAccess.FEED, KafkaAccess.broker(region.name()));
            assertThat(granted).as(region.name() + " ACLs").isEqualTo(table);
        }
    }

    @Test
    void everyClientListenerTakesScramLoginsOverTlsAndEnforcesTheAcls() {
        for (Region region : RegionsModelAgreementIT.MODEL.regions()) {
            List<ObjectNode> objects = K8sTools.objects(K8sTools.build(K8sTools.K8S.resolve("overlays").resolve(region.name())));
            JsonNode kafka = K8sTools.one(objects, "Kafka", "kafka").path("spec").path("kafka");
            assertThat(kafka.path("authorization").path("type").asString()).as(region.name()).isEqualTo("simple");
            assertThat(kafka.path("listeners")).as(region.name()).isNotEmpty();
            for (JsonNode listener : kafka.path("listeners")) {
                String where = region.name() + " listener " + listener.path("name").asString();
                assertThat(listener.path("authentication").path("type").asString()).as(where).isEqualTo("scram-sha-512");
                assertThat(listener.path("tls").asBoolean()).as(where + " encrypted").isTrue();
            }
        }
    }

    @Test
    void theBrokersAndTheFeedTrustTheKafkaClusterCa() {
        for (Region region : RegionsModelAgreementIT.MODEL.regions()) {
            String where = "overlay " + region.name();
            List<ObjectNode> objects = K8sTools.objects(K8sTools.build(K8sTools.K8S.resolve("overlays").resolve(region.name())));

            JsonNode broker = container(objects, "broker-service");
            String store = K8sTools.one(objects, "ConfigMap", "broker-config").path("data").path("BROKER_KAFKA_TRUSTSTORE").asString();
            assertThat(secretFileBehind(objects, "broker-service", broker, store)).as(where + " broker truststore").isEqualTo(CLUSTER_CA + "/ca.p12");
            JsonNode password = null;
            for (JsonNode env : broker.path("env")) {
                if (env.path("name").asString().equals("BROKER_KAFKA_TRUSTSTOREPASSWORD")) {
                    password = env.path("valueFrom").path("secretKeyRef");
                }
            }
            assertThat(password).as(where + " BROKER_KAFKA_TRUSTSTOREPASSWORD").isNotNull();
            assertThat(password.path("name").asString() + "/" + password.path("key").asString()).as(where).isEqualTo(CLUSTER_CA + "/ca.password");

            JsonNode feed = container(objects, "ticker-feed");
            List<String> args = new ArrayList<>();
            feed.path("args").forEach(arg -> args.add(arg.asString()));
            assertThat(secretFileBehind(objects, "ticker-feed", feed, args.get(args.indexOf("--kafka-truststore") + 1)))
                    .as(where + " feed truststore").isEqualTo(CLUSTER_CA + "/ca.p12");
            assertThat(secretFileBehind(objects, "ticker-feed", feed, args.get(args.indexOf("--kafka-truststore-password-file") + 1)))
                    .as(where + " feed truststore password").isEqualTo(CLUSTER_CA + "/ca.password");
        }
    }

    /** The "secret/key" a file of the container comes from, through its volume mounts; "" when it comes from none. */
    private static String secretFileBehind(List<ObjectNode> objects, String deployment, JsonNode container, String file) {
        for (JsonNode mount : container.path("volumeMounts")) {
            String mountPath = mount.path("mountPath").asString();
            if (!file.startsWith(mountPath + "/")) {
                continue;
            }
            String relative = file.substring(mountPath.length() + 1);
            for (JsonNode volume : K8sTools.one(objects, "Deployment", deployment).path("spec").path("template").path("spec").path("volumes")) {
                if (volume.path("name").asString().equals(mount.path("name").asString())) {
                    for (JsonNode item : volume.path("secret").path("items")) {
                        if (item.path("path").asString().equals(relative)) {
                            return volume.path("secret").path("secretName").asString() + "/" + item.path("key").asString();
                        }
                    }
                }
            }
        }
        return "";
    }

    @Test
    void theBrokersAndTheFeedLogInAsTheirUsers() {
        for (Region region : RegionsModelAgreementIT.MODEL.regions()) {
            String where = "overlay " + region.name();
            List<ObjectNode> objects = K8sTools.objects(K8sTools.build(K8sTools.K8S.resolve("overlays").resolve(region.name())));
            String broker = KafkaAccess.broker(region.name());
            assertThat(K8sTools.one(objects, "ConfigMap", "broker-config").path("data").path("BROKER_KAFKA_USERNAME").asString())
                    .as(where).isEqualTo(broker);
            JsonNode password = null;
            for (JsonNode env : container(objects, "broker-service").path("env")) {
                if (env.path("name").asString().equals("BROKER_KAFKA_PASSWORD")) {
                    password = env.path("valueFrom").path("secretKeyRef");
                }
            }
            assertThat(password).as(where + " BROKER_KAFKA_PASSWORD").isNotNull();
            assertThat(password.path("name").asString()).as(where).isEqualTo(broker);
            assertThat(password.path("key").asString()).as(where).isEqualTo("password");

            JsonNode feed = container(objects, "ticker-feed");
            List<String> args = new ArrayList<>();
            feed.path("args").forEach(arg -> args.add(arg.asString()));
            assertThat(args).as(where).containsSequence("--kafka-user", KafkaAccess.FEED);
            String file = args.get(args.indexOf("--kafka-password-file") + 1);
            String mountPath = null;
            String volume = null;
            for (JsonNode mount : feed.path("volumeMounts")) {
                if (file.startsWith(mount.path("mountPath").asString() + "/")) {
                    mountPath = mount.path("mountPath").asString();
                    volume = mount.path("name").asString();
                }
            }
            assertThat(volume).as(where + " the feed's password file is on a volume").isNotNull();
            for (JsonNode v : K8sTools.one(objects, "Deployment", "ticker-feed").path("spec").path("template").path("spec").path("volumes")) {
                if (v.path("name").asString().equals(volume)) {
                    assertThat(v.path("secret").path("secretName").asString()).as(where).isEqualTo(KafkaAccess.FEED);
                    assertThat(v.path("secret").path("items").get(0).path("key").asString()).as(where).isEqualTo("password");
                    assertThat(mountPath + "/" + v.path("secret").path("items").get(0).path("path").asString()).as(where).isEqualTo(file);
                }
            }
        }
    }

    private static JsonNode container(List<ObjectNode> objects, String deployment) {
        return K8sTools.one(objects, "Deployment", deployment).path("spec").path("template").path("spec").path("containers").get(0);
    }

    /** READ -> Read, as Strimzi spells Kafka's operations. */
    private static String camel(String constant) {
        return constant.charAt(0) + constant.substring(1).toLowerCase(Locale.ROOT);
    }
}
