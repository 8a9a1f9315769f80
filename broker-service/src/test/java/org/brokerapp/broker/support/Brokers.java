package org.brokerapp.broker.support;

import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.brokerapp.broker.BrokerApplication;
import org.brokerapp.broker.matching.MatchingService;
import org.brokerapp.client.BearerTokens;
import org.brokerapp.client.BrokerSession;
import org.brokerapp.infra.host.Await;
import org.brokerapp.infra.host.Progress;
import org.brokerapp.infra.servers.KafkaAccess;
import org.brokerapp.infra.servers.SearchLogins;
import org.brokerapp.infra.stack.LocalStack;
import org.brokerapp.infra.tls.StackTls;
import org.brokerapp.ticker.Topics;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** A broker per region of the local stack, each a Spring Boot application in this JVM on its own port. */
public final class Brokers implements AutoCloseable {

    public static final String KEYSPACE = "broker_it";
    static final int TICK_PARTITIONS = 6;

    private final LocalStack stack;
    private final Map<String, ConfigurableApplicationContext> contexts = new LinkedHashMap<>();
    /** Every client's: on a TLS stack it trusts the stack's CA. */
    private final HttpClient http;
    /** The customers' bearer tokens, asked for once per customer and password. */
    private final BearerTokens tokens;

    private Brokers(LocalStack stack) {
        this.stack = stack;
        this.http = BrokerSession.trusting(stack.tls().map(StackTls::clientContext));
        this.tokens = new BearerTokens(http);
    }

    static Brokers start(LocalStack stack) {
        // the brokers run as deployed: each indexes its region's order events, and searches fan out to every region
        stack.startSearch(new Progress(System.out));
        Brokers brokers = new Brokers(stack);
        for (String region : stack.regions().names()) {
            createTicksTopic(stack.kafkaClientConfig(region, KafkaAccess.ADMIN));
        }
        for (String region : stack.regions().names()) {
            brokers.contexts.put(region, run(stack, region));
        }
        brokers.awaitMatching(Duration.ofSeconds(60));
        return brokers;
    }

    private static ConfigurableApplicationContext run(LocalStack stack, String region) {
        return run(stack, region, Map.of());
    }

    private static ConfigurableApplicationContext run(LocalStack stack, String region, Map<String, Object> overrides) {
        Map<String, Object> properties = properties(stack, region);
        properties.putAll(overrides);
        // as command-line arguments: builder properties are only defaults, which application.yaml overrides
        String[] args = properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new);
        return new SpringApplicationBuilder(BrokerApplication.class).run(args);
    }

    /**
     * Restarts a region's broker with some settings of its own (a session calendar, say), on the same
     * address, and waits until it matches; {@code Map.of()} restores the settings every test shares.
     */
    public void restartWith(String region, Map<String, Object> overrides) {
        if (contexts.containsKey(region)) {
            stop(region);
        }
        contexts.put(region, run(stack, region, overrides));
        awaitMatching(Duration.ofSeconds(60));
        awaitLinksClosed(Duration.ofSeconds(60));
    }

    /** Stops a region's broker: its region is then a region whose broker is gone. */
    public void stop(String region) {
        contexts.remove(region).close();
    }

    /** Starts a stopped region's broker again, on the same address, and waits until it matches. */
    public void restart(String region) {
        if (!contexts.containsKey(region)) {
            contexts.put(region, run(stack, region));
            awaitMatching(Duration.ofSeconds(60));
            awaitLinksClosed(Duration.ofSeconds(60));
        }
    }

    /** A bean of a region's running broker, e.g. its {@code PeerSigner}. */
    public <T> T bean(String region, Class<T> type) {
        return contexts.get(region).getBean(type);
    }

    public boolean running(String region) {
        return contexts.containsKey(region);
    }

    /** The settings of a region's broker on the stack, as the tests run it (TLS ones included when the stack runs TLS). */
    public static Map<String, Object> properties(LocalStack stack, String region) {
        Map<String, Object> properties = new LinkedHashMap<>();
        // the demo secrets and accounts (alice, bob, carol; operator-pw)
        properties.put("spring.profiles.active", "local");
        properties.put("broker.region", region);
        properties.put("broker.keyspace", KEYSPACE);
        properties.put("broker.kafka.bootstrap-servers", stack.kafkaBootstrapServers(region));
        properties.put("broker.kafka.username", KafkaAccess.broker(region));
        properties.put("broker.kafka.password", stack.kafkaCredential(KafkaAccess.broker(region)).password());
        properties.put("spring.cassandra.contact-points", stack.cqlContactPoints(region).stream()
                .map(a -> a.getHostString() + ":" + a.getPort()).collect(Collectors.joining(",")));
        properties.put("spring.cassandra.local-datacenter", stack.localDatacenter(region));
        // where the stack's WAN emulator forwards other regions' broker traffic
        properties.put("server.address", host(stack.brokerAddress(region)));
        properties.put("server.port", port(stack.brokerAddress(region)));
        // Tomcat's work directory under target/, not a new one in /tmp for every broker a test starts
        properties.put("server.tomcat.basedir", Path.of("target", "tomcat", region).toAbsolutePath().toString());
        properties.put("spring.jmx.enabled", "false");
        // on a TLS stack: HTTPS with the region's certificate, CQL over TLS, https peers, all trusting the stack's CA
        properties.putAll(stack.brokerTlsProperties(region));
        // load-1..load-24 (homes: the regions in turn), 10,000,000 cash each, for tests that need fresh accounts
        properties.put("broker.load-customers", "24");
        for (String other : stack.regions().names()) {
            if (!other.equals(region)) {
                properties.put("broker.routing.peers." + other, stack.brokerUrlFromOtherRegions(other));
            }
        }
        for (String any : stack.regions().names()) {
            properties.put("broker.search.elasticsearch." + any, stack.elasticsearchUrl(any));
        }
        properties.put("broker.search.username", SearchLogins.BROKER);
        properties.put("broker.search.password", stack.searchLogins().password(SearchLogins.BROKER));
        // tests tick symbols at prices each test chooses, not along a market's path: a band that refuses
        // only absurd moves; TickTrustIT checks the real band on a symbol of its own
        properties.put("broker.ticks.price-band", "0.99");
        properties.put("broker.ticks.price-bands." + TickTrustSymbols.BAND, "0.10");
        properties.put("broker.ticks.price-bands." + TickTrustSymbols.GAP, "0.10");
        properties.put("broker.ticks.price-bands." + TickTrustSymbols.WALK, "0.10");
        // EventSeamsIT sends a placement again after the decider forgot its decision: 10 s, not 5 minutes
        properties.put("broker.matching.decision-memory", "10s");
        properties.put("broker.matching.max-clock-skew", "1s");
        // UnknownOutcomeIT waits for the owner to settle a placement of unknown outcome: seconds, not half a minute
        properties.put("broker.matching.settle-unknown-after", "5s");
        properties.put("broker.matching.settle-every", "1s");
        // BoundedOwnerMemoryIT retries orders their owner has let go of: closed orders leave memory after 2 s, not 10 minutes
        properties.put("broker.matching.closed-order-memory", "2s");
        // OpenOrderCapIT fills a customer's cap of open orders: 300, not 10,000
        properties.put("broker.matching.max-open-orders-per-customer", "300");
        // BadInputIT sends its refusals as fast as they are answered, as alice: the per-customer order rate is CredentialsTests'
        properties.put("broker.security.orders-per-second", "1000");
        // tests wait for the circuit to close after a heal: not 5 s per probe
        properties.put("resilience4j.circuitbreaker.configs.default.wait-duration-in-open-state", "2s");
        return properties;
    }

    static String host(String hostAndPort) {
        return hostAndPort.substring(0, hostAndPort.lastIndexOf(':'));
    }

    static String port(String hostAndPort) {
        return hostAndPort.substring(hostAndPort.lastIndexOf(':') + 1);
    }

    /** The region's {@code ticks} topic, as the feed would create it (nothing when it exists). */
    public static void createTicksTopic(Map<String, Object> kafka) {
        try (Admin admin = Admin.create(kafka)) {
            admin.createTopics(List.of(new NewTopic(Topics.TICKS, TICK_PARTITIONS, (short) 1))).all().get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException(e);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Waits until every broker holds its region's symbols (its consumer got its partitions). */
    private void awaitMatching(Duration timeout) {
        Await.until("every broker holds its region's symbols", timeout,
                () -> contexts.values().stream().allMatch(context -> context.getBean(MatchingService.class).ownedSymbols() > 0));
    }

    /**
     * Waits until every running broker's circuit to every other running region is closed again: a
     * restart opens the others' circuits to the region while it is down, and a test that follows
     * would otherwise meet a 503 its own steps did not cause.
     */
    private void awaitLinksClosed(Duration timeout) {
        Await.until("every circuit between running brokers closed", timeout, () -> contexts.entrySet().stream()
                .allMatch(from -> contexts.keySet().stream().filter(to -> !to.equals(from.getKey()))
                        .allMatch(to -> from.getValue().getBean(CircuitBreakerRegistry.class).circuitBreaker(to).getState() == CircuitBreaker.State.CLOSED)));
    }

    public TestSession client(String region, String customer, String password) {
        return new TestSession(stack.brokerUrl(region), http, tokens, customer, password);
    }

    /** The operator of a region's broker: admin endpoints, metrics and health details. */
    public TestSession operator(String region) {
        return client(region, "operator", "operator-pw");
    }

    public TickPublisher ticks(String region) {
        return new TickPublisher(stack.kafkaClientConfig(region, KafkaAccess.FEED));
    }

    /** The first value of a series in a region's broker's Prometheus scrape, or 0 when the series is not there (yet). */
    public double metric(String region, Pattern series) {
        Matcher m = series.matcher(operator(region).get("/actuator/prometheus").raw());
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    public LocalStack stack() {
        return stack;
    }

    @Override
    public void close() {
        contexts.values().forEach(ConfigurableApplicationContext::close);
    }

    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
