package org.brokerapp.infra.servers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.brokerapp.infra.host.Await;
import org.brokerapp.infra.junit.LocalStackTest;
import org.brokerapp.infra.stack.LocalStack;
import org.brokerapp.regions.KafkaCredential;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The stack's Kafka takes only clients that log in, and each principal only what {@link KafkaAccess} grants. */
@LocalStackTest
class KafkaAccessIT {

    private static final String REGION = "us-east-1";
    private static final String OTHER = "ap-southeast-2";

    private final LocalStack stack;

    KafkaAccessIT(LocalStack stack) {
        this.stack = stack;
    }

    @BeforeAll
    static void topicsExist(LocalStack stack) throws Exception {
        try (Admin admin = Admin.create(stack.kafkaClientConfig(REGION, KafkaAccess.ADMIN))) {
            for (String topic : List.of(KafkaAccess.TICKS, KafkaAccess.ORDER_EVENTS)) {
                try {
                    admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all().get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
        }
    }

    @Test
    void theFeedWritesTicksAndNothingElse() throws Exception {
        try (KafkaProducer<String, String> feed = producer(KafkaAccess.FEED)) {
            feed.send(new ProducerRecord<>(KafkaAccess.TICKS, "IBM", "a tick")).get(30, TimeUnit.SECONDS);

            assertThat(sendFailure(feed, KafkaAccess.ORDER_EVENTS)).isInstanceOf(TopicAuthorizationException.class);
        }
    }

    @Test
    void aBrokerCannotWriteTicks() {
        try (KafkaProducer<String, String> broker = producer(KafkaAccess.broker(REGION))) {
            assertThat(sendFailure(broker, KafkaAccess.TICKS)).isInstanceOf(TopicAuthorizationException.class);
        }
    }

    @Test
    void aClientThatDoesNotLogInIsRefused() {
        // the broker closes a connection that skips the SASL handshake: the client only ever times out
        try (Admin anonymous = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrapServers(REGION),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000, AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000))) {
            Throwable failure = catchThrowable(() -> anonymous.listTopics().names().get(30, TimeUnit.SECONDS));
            assertThat(unwrapped(failure)).isInstanceOf(TimeoutException.class);
        }
    }

    @Test
    void aWrongPasswordIsRefused() {
        KafkaCredential wrong = new KafkaCredential(KafkaAccess.FEED, "not-" + stack.kafkaCredential(KafkaAccess.FEED).password());
        assertThat(listTopicsFailure(REGION, wrong)).isInstanceOf(SaslAuthenticationException.class);
    }

    @Test
    void aRegionsKafkaDoesNotKnowAnotherRegionsBrokers() {
        assertThat(listTopicsFailure(OTHER, stack.kafkaCredential(KafkaAccess.broker(REGION)))).isInstanceOf(SaslAuthenticationException.class);
    }

    @Test
    void aBrokerJoinsItsRegionsGroupButNotAnotherRegions() {
        String principal = KafkaAccess.broker(REGION);
        try (KafkaConsumer<String, String> own = consumer(principal, "broker-" + REGION)) {
            own.subscribe(List.of(KafkaAccess.TICKS));
            Await.until(principal + " gets ticks partitions in its own group", Duration.ofSeconds(30), () -> {
                own.poll(Duration.ofMillis(200));
                return !own.assignment().isEmpty();
            });
        }
        try (KafkaConsumer<String, String> intruder = consumer(principal, "broker-" + OTHER)) {
            intruder.subscribe(List.of(KafkaAccess.TICKS));
            Throwable failure = catchThrowable(() -> {
                for (int i = 0; i < 50; i++) {
                    intruder.poll(Duration.ofMillis(200));
                }
            });
            assertThat(failure).isInstanceOf(GroupAuthorizationException.class);
        }
    }

    /** The kafka-kill drill's fault: after SIGKILL the broker restarts on its data, with its logins and ACLs. */
    @Test
    void aKilledKafkaComesBackWithItsRecordsLoginsAndAcls() throws Exception {
        String key = "before-the-kill-" + UUID.randomUUID();
        try (KafkaProducer<String, String> feed = producer(KafkaAccess.FEED)) {
            feed.send(new ProducerRecord<>(KafkaAccess.TICKS, key, "a tick")).get(30, TimeUnit.SECONDS);
        }

        stack.killKafka(REGION);
        Duration restart = stack.restartKafka(REGION);

        assertThat(restart).isPositive();
        try (KafkaProducer<String, String> feed = producer(KafkaAccess.FEED)) {
            feed.send(new ProducerRecord<>(KafkaAccess.TICKS, "IBM", "a tick after the restart")).get(30, TimeUnit.SECONDS);
        }
        try (KafkaProducer<String, String> broker = producer(KafkaAccess.broker(REGION))) {
            assertThat(sendFailure(broker, KafkaAccess.TICKS)).isInstanceOf(TopicAuthorizationException.class);
        }
        Map<String, Object> config = stack.kafkaClientConfig(REGION, KafkaAccess.ADMIN);
        try (KafkaConsumer<String, String> reader = new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions = reader.partitionsFor(KafkaAccess.TICKS, Duration.ofSeconds(30)).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            reader.assign(partitions);
            reader.seekToBeginning(partitions);
            List<String> keys = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!keys.contains(key) && System.nanoTime() < deadline) {
                reader.poll(Duration.ofMillis(500)).forEach(r -> keys.add(r.key()));
            }
            assertThat(keys).as("the record written before the kill").contains(key);
        }
    }

    private KafkaProducer<String, String> producer(String principal) {
        Map<String, Object> config = stack.kafkaClientConfig(REGION, principal);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 10_000);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }

    private KafkaConsumer<String, String> consumer(String principal, String group) {
        Map<String, Object> config = stack.kafkaClientConfig(REGION, principal);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        return new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer());
    }

    private static Throwable sendFailure(KafkaProducer<String, String> producer, String topic) {
        return unwrapped(catchThrowable(() -> producer.send(new ProducerRecord<>(topic, "k", "v")).get(30, TimeUnit.SECONDS)));
    }

    private Throwable listTopicsFailure(String region, KafkaCredential credential) {
        Map<String, Object> config = new java.util.HashMap<>(credential.clientProperties());
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafkaBootstrapServers(region));
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        try (Admin admin = Admin.create(config)) {
            return unwrapped(catchThrowable(() -> admin.listTopics().names().get(30, TimeUnit.SECONDS)));
        }
    }

    private static Throwable unwrapped(Throwable failure) {
        return failure instanceof ExecutionException ? failure.getCause() : failure;
    }
}
