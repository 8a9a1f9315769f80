package org.brokerapp.infra.stack;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.brokerapp.infra.host.AddressPlan;
import org.brokerapp.infra.host.StackException;
import org.brokerapp.infra.servers.KafkaAccess;
import org.brokerapp.infra.servers.KafkaBroker;
import org.brokerapp.infra.tls.StackTls;
import org.brokerapp.regions.CqlLogin;
import org.brokerapp.regions.KafkaCredential;
import org.brokerapp.regions.KafkaTrust;

/** What "ready" means for a server of the stack, asked the way its clients ask: Kafka's admin API, a CQL query. */
public final class Readiness {

    private Readiness() {
    }

    private static Map<String, Object> adminConfig(KafkaBroker broker, KafkaCredential admin, Optional<KafkaTrust> trust) {
        Map<String, Object> config = new java.util.HashMap<>(admin.clientProperties(trust));
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
        return config;
    }

    public static void awaitKafkaAccepting(KafkaBroker broker, KafkaCredential adminLogin, Optional<KafkaTrust> trust) {
        try (Admin admin = Admin.create(adminConfig(broker, adminLogin, trust))) {
            if (admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).isEmpty()) {
                throw new StackException(broker.name() + " reports no brokers");
            }
        } catch (ExecutionException | TimeoutException e) {
            throw new StackException(broker.name() + " does not accept clients on " + broker.bootstrapServers() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StackException("interrupted");
        }
    }

    /** Creates the region's ACLs of {@link KafkaAccess} (creating an existing one again changes nothing). */
    public static void grantAccess(KafkaBroker broker, KafkaCredential adminLogin, Optional<KafkaTrust> trust) {
        try (Admin admin = Admin.create(adminConfig(broker, adminLogin, trust))) {
            admin.createAcls(KafkaAccess.bindings(broker.region().name())).all().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new StackException(broker.name() + " did not take its ACLs: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StackException("interrupted");
        }
    }

    public static void awaitCqlAnswers(StackLayout layout, Optional<StackTls> tls, Optional<CqlLogin> login, String region) {
        try (CqlSession session = session(layout, tls, login, region)) {
            session.execute("SELECT release_version FROM system.local");
        } catch (RuntimeException e) {
            throw new StackException("CQL does not answer in " + region + ": " + e.getMessage(), e);
        }
    }

    static CqlSession session(StackLayout layout, Optional<StackTls> tls, Optional<CqlLogin> login, String region) {
        CqlSessionBuilder builder = CqlSession.builder()
                .addContactPoints(layout.cassandraIn(region).stream()
                        .map(n -> new InetSocketAddress(n.address(), AddressPlan.CQL_PORT)).toList())
                .withLocalDatacenter(layout.settings().regions().region(region).datacenter());
        tls.ifPresent(t -> builder.withSslContext(t.clientContext()));
        login.ifPresent(l -> builder.withAuthCredentials(l.role(), l.password()));
        return builder.build();
    }
}
