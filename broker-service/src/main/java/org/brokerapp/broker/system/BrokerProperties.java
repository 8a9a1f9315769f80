package org.brokerapp.broker.system;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import org.brokerapp.regions.KafkaCredential;
import org.brokerapp.regions.KafkaTrust;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Everything a regional broker is told. Region-specific values (region, Kafka, Cassandra contact
 * points and local DC) live in the region's profile, e.g. {@code application-us-east-1.yaml}.
 *
 * @param region       the region this broker serves; must exist in the regions model (required, per region)
 * @param regionsFile  path of the regions model; empty means the packaged {@code infra/regions.yaml}
 * @param keyspace     the multi-DC keyspace (same in every region)
 * @param kafka        this region's Kafka (per region)
 * @param matching     matching engine sizing (may differ per region)
 * @param events       the order path's Kafka topics and the relay that carries events between regions
 * @param advertisedUrl this instance's base URL as the other instances of its region reach it (an order for a
 *                     customer or symbol held by another instance is handed over there); empty means
 *                     {@code http://<server.address>:<server.port>}
 * @param routing      how market orders reach the home region of their symbol
 * @param market       market order execution
 * @param failover     when and how this region matches another region's exchanges
 * @param seedAccounts demo and test customers created at start if missing (same in every region)
 * @param loadCustomers generated customers {@code load-1..load-N} (password {@code load-N-pw}, 10,000,000 cash, home
 *                     region: the regions of the model in turn, {@code load-1} in the first) for the load test, so
 *                     that load spreads over many ledger partitions; 0 in production
 */
@Validated
@ConfigurationProperties("broker")
public record BrokerProperties(
        @NotBlank String region,
        @DefaultValue("") String regionsFile,
        @DefaultValue("broker") String keyspace,
        @Valid @DefaultValue Kafka kafka,
        @Valid @DefaultValue Matching matching,
        @Valid @DefaultValue Events events,
        @DefaultValue("") String advertisedUrl,
        @Valid @DefaultValue Routing routing,
        @Valid @DefaultValue Market market,
        @Valid @DefaultValue Failover failover,
        @DefaultValue List<@Valid SeedAccount> seedAccounts,
        @Min(0) @DefaultValue("0") int loadCustomers) {

    /**
     * @param bootstrapServers this region's Kafka (required, per region)
     * @param groupId          consumer group of this region's brokers; instances of one region share it
     * @param handOffCapacity  ticks buffered between the poll loop and the matcher; when full, polling pauses
     * @param sessionTimeout   how long a silent instance keeps its symbols before the group hands them on
     * @param username         the Kafka principal this region's brokers log in as with SCRAM-SHA-512 over SASL_PLAINTEXT
     *                         ({@code broker-<region>} in the local stack, whose ACLs let it join only its region's
     *                         groups: {@code group-id} must then stay the default); empty: no login, a Kafka without
     *                         authentication (per region)
     * @param password         that principal's password, from the environment ({@code BROKER_KAFKA_PASSWORD}; the
     *                         local stack writes it to {@code <work-dir>/kafka-credentials/broker-<region>.password});
     *                         required with {@code username}
     * @param truststore       what to check this region's Kafka against: the login then goes over TLS ({@code SASL_SSL}).
     *                         A PKCS12 store with {@code truststore-password} (the local stack with {@code --tls}: its
     *                         {@code <work-dir>/tls/truststore.p12}), or without a password a PEM
     *                         file of CA certificates (Terraform's {@code data_ca_cert_pem}); empty: plaintext
     * @param truststorePassword the PKCS12 store's password ({@code BROKER_KAFKA_TRUSTSTOREPASSWORD}); empty for a PEM file
     */
    public record Kafka(@DefaultValue("127.0.1.2:9092") String bootstrapServers, @DefaultValue("") String groupId,
                        @Min(16) @DefaultValue("8192") int handOffCapacity, @DefaultValue("10s") Duration sessionTimeout,
                        @DefaultValue("") String username, @DefaultValue("") String password,
                        @DefaultValue("") String truststore, @DefaultValue("") String truststorePassword) {

        public Kafka {
            if (!username.isBlank() && password.isBlank()) {
                throw new IllegalArgumentException("broker.kafka.username is " + username + " but broker.kafka.password is empty"
                        + " (set BROKER_KAFKA_PASSWORD; the local stack writes it to <work-dir>/kafka-credentials/" + username + ".password)");
            }
            if (!truststore.isBlank() && username.isBlank()) {
                throw new IllegalArgumentException("broker.kafka.truststore is set but broker.kafka.username is empty: TLS to Kafka goes with a login");
            }
        }

        /** Where this region's Kafka answers and how to log in: the start of every Kafka client's configuration. */
        public Map<String, Object> connection() {
            Map<String, Object> connection = new java.util.HashMap<>();
            connection.put("bootstrap.servers", bootstrapServers);
            if (!username.isBlank()) {
                connection.putAll(new KafkaCredential(username, password).clientProperties(trust()));
            }
            return connection;
        }

        private Optional<KafkaTrust> trust() {
            if (truststore.isBlank()) {
                return Optional.empty();
            }
            return Optional.of(truststorePassword.isBlank() ? KafkaTrust.pemFile(Path.of(truststore))
                    : new KafkaTrust.Pkcs12Store(Path.of(truststore), truststorePassword));
        }

        @Override
        public String toString() {
            return "Kafka[bootstrapServers=" + bootstrapServers + ", groupId=" + groupId + ", username=" + username + ", truststore=" + truststore + "]";
        }
    }

    /**
     * @param openOrderShards    partitions per symbol of the open_orders table (bounds partition size and tombstones)
     * @param buyStopCollar      a BUY STOP reserves and fills up to stop x (1 + collar): protects cash on a gap up
     * @param maxFillsInFlight   concurrent fill transactions; beyond it the matcher waits (backpressure)
     * @param decisionMemory     how long the matcher remembers a decision; an order delivered again after that (or placed
     *                           before this instance took its symbol) is checked against the ledger before it is decided
     * @param maxClockSkew       how far the placing broker's clock may be from this one's: the memory vouches for an order
     *                           only if it was placed more than this inside the memory's window
     * @param maxOpenOrdersPerCustomer open orders a customer may hold at once (each rests in a matcher's memory); past it a
     *                           placement is refused (422) until one fills or is cancelled
     * @param settleUnknownAfter how long a placement whose outcome is unknown (its write or event did not answer in time)
     *                           waits for its customer's retry before its owner finishes it as that retry would; its
     *                           reservation shows as pending in the holdings meanwhile
     * @param closedOrderMemory  how long a closed order stays in its owner's memory (a retry soon after finds it there);
     *                           after that a retry of it reads its ledger row, and the owner holds only open and unsettled orders
     */
    public record Matching(@Min(1) @DefaultValue("8") int openOrderShards, @DefaultValue("0.10") BigDecimal buyStopCollar,
                           @Min(1) @DefaultValue("64") int maxFillsInFlight, @DefaultValue("5m") Duration decisionMemory,
                           @DefaultValue("30s") Duration maxClockSkew, @Min(1) @DefaultValue("10000") int maxOpenOrdersPerCustomer,
                           @DefaultValue("30s") Duration settleUnknownAfter, @DefaultValue("10m") Duration closedOrderMemory) {
    }

    /**
     * @param partitions        partitions of {@code order-events} and {@code customers} when the broker creates them;
     *                          the customers' partitions are the units in which a region's instances share customers
     * @param replicationFactor replication of those topics in this region's Kafka (1 in the local stack, 3 in production)
     * @param relayRetry        how soon the relay tries again to hand events to a region that did not take them
     * @param directAfter       how long this region's Kafka has to acknowledge an event before the event is also carried
     *                          straight to the region acting on it (a Kafka outage then delays placements by this much
     *                          instead of refusing them)
     * @param relayCommitInterval how often a relay commits what its destination took (0: after every batch); a relay
     *                          that stops in between delivers up to this much again, which the destination takes once,
     *                          and each commit is a write to Kafka it no longer makes per event
     */
    public record Events(@Min(1) @DefaultValue("16") int partitions, @Min(1) @DefaultValue("1") short replicationFactor,
                         @DefaultValue("200ms") Duration relayRetry, @DefaultValue("1s") Duration directAfter,
                         @DefaultValue("1s") Duration relayCommitInterval) {
    }

    /**
     * The cross-region channel between brokers; its calls are signed per region ({@code broker.peers}, package
     * {@code peer}). Its resilience (time limiter, circuit breaker,
     * bulkhead, retry) is configured per peer region under {@code resilience4j.*}, instance name = region.
     *
     * @param peers        each other region's broker base URL as this region reaches it (per region; a region
     *                     without an entry cannot receive routed market orders from here)
     * @param pingInterval how often each peer is pinged: keeps a connection open across the WAN and lets the
     *                     circuit breaker see a healed link without waiting for customer traffic
     * @param unansweredPingsToOpen pings in a row a peer must leave unanswered for its circuit to open, so that
     *                     MARKET orders routed there are refused at once rather than after waiting on a cut link; while
     *                     the circuit is half-open only pings probe the peer, never a customer's order
     * @param sslBundle    the Spring SSL bundle ({@code spring.ssl.bundle.*}) whose truststore decides which {@code https}
     *                     peers (and instances of this region) this broker trusts; empty: the JVM's default trust (same in
     *                     every region; the local stack's TLS mode sets it to the bundle holding the stack's CA)
     */
    public record Routing(@DefaultValue Map<String, String> peers, @DefaultValue("1s") Duration pingInterval,
                          @DefaultValue("3") @Min(1) int unansweredPingsToOpen, @DefaultValue("") String sslBundle) {
    }

    /**
     * @param maxPriceAge a market order executes only against a tick at most this old; older means no price (422)
     */
    public record Market(@DefaultValue("60s") Duration maxPriceAge) {
    }

    /**
     * Ownership of exchanges and regional failover. The timing keeps two regions from ever matching
     * the same exchange: {@code handover} must exceed {@code lease} + the Cassandra request timeout +
     * {@code refreshInterval} (checked at start-up), and clocks must agree to well within it.
     *
     * @param refreshInterval  how often exchange_owners is read
     * @param lease            with no successful read for this long, this region stops matching everything
     * @param handover         a region named owner starts matching this long after the change
     * @param operatorPassword password of the HTTP Basic user {@code operator}, who may adopt and release exchanges and
     *                         read metrics and health details; plain or {@code {bcrypt}...}, held hashed (required)
     * @param autoAdopt        exchanges this region adopts by itself when their owner's broker has been unreachable
     *                         for {@code autoAdoptAfter} (empty: only the operator fails over)
     * @param autoAdoptAfter   grace period of the automatic policy
     */
    public record Failover(@DefaultValue("1s") Duration refreshInterval, @DefaultValue("10s") Duration lease,
                           @DefaultValue("20s") Duration handover, @NotBlank String operatorPassword,
                           @DefaultValue List<String> autoAdopt, @DefaultValue("60s") Duration autoAdoptAfter) {
    }

    /**
     * A customer created at start-up if absent. Its password ({@code {bcrypt}...}, or plain in the local
     * profile) gets tokens. {@code homeRegion} is where the customer's balances are decided (orders placed
     * elsewhere are forwarded there); empty means the first region of the regions model.
     */
    public record SeedAccount(@NotBlank String customerId, @NotBlank String password, BigDecimal cash,
                              @DefaultValue Map<String, Long> positions, @DefaultValue("") String homeRegion) {
    }

    /** The configured seed accounts plus the generated load-test customers. */
    public List<SeedAccount> allAccounts() {
        List<SeedAccount> all = new java.util.ArrayList<>(seedAccounts);
        for (int n = 1; n <= loadCustomers; n++) {
            all.add(new SeedAccount("load-" + n, "load-" + n + "-pw", new BigDecimal("10000000.00"), Map.of(), ""));
        }
        return all;
    }

    public String consumerGroup() {
        return kafka.groupId().isBlank() ? "broker-" + region : kafka.groupId();
    }
}
