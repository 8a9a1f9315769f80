package org.brokerapp.broker.search;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;

import co.elastic.clients.elasticsearch.ElasticsearchClient;
import co.elastic.clients.json.jackson.Jackson3JsonpMapper;
import co.elastic.clients.transport.rest_client.RestClientTransport;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.http.Header;
import org.apache.http.HttpHost;
import org.apache.http.message.BasicHeader;
import org.brokerapp.broker.account.CustomerHomes;
import org.brokerapp.broker.account.CustomerLedger;
import org.brokerapp.broker.system.BrokerProperties;
import org.elasticsearch.client.RestClient;
import org.elasticsearch.client.RestClientBuilder;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * Search beans, present only when {@code broker.search.elasticsearch} names this broker's region
 * ({@link SearchEnabled}); without them the broker trades exactly as before.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(SearchEnabled.class)
class SearchConfiguration {

    /** One client per region's cluster, this region's first. Closed with the context. */
    @Bean(destroyMethod = "close")
    SearchClients searchClients(SearchProperties properties, BrokerProperties broker, SslBundles sslBundles) {
        List<SearchClients.Regional> clients = new ArrayList<>();
        Map<String, String> urls = properties.elasticsearch();
        SSLContext trust = properties.sslBundle().isEmpty() ? null : sslBundles.getBundle(properties.sslBundle()).createSslContext();
        clients.add(new SearchClients.Regional(broker.region(), client(urls.get(broker.region()), properties, trust)));
        urls.forEach((region, url) -> {
            if (!region.equals(broker.region())) {
                clients.add(new SearchClients.Regional(region, client(url, properties, trust)));
            }
        });
        return new SearchClients(clients);
    }

    @Bean
    @ConditionalOnProperty(name = "broker.search.indexer.enabled", havingValue = "true", matchIfMissing = true)
    OrderEventIndexer orderEventIndexer(SearchClients clients, SearchProperties properties, BrokerProperties broker, MeterRegistry registry) {
        return new OrderEventIndexer(clients.local(), properties, broker.region(), broker.kafka().connection(), registry, Clock.systemUTC());
    }

    @Bean(destroyMethod = "shutdownNow")
    @Qualifier("search")
    ExecutorService searchFanOutExecutor() {
        AtomicInteger n = new AtomicInteger();
        return Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "search-fan-out-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    @Bean
    FanOutSearch fanOutSearch(SearchClients clients, SearchProperties properties, @Qualifier("search") ExecutorService executor) {
        return new FanOutSearch(clients.all().stream().map(c -> new RegionSearch(c.region(), c.client())).toList(),
                properties.fanOutDeadline(), executor);
    }

    @Bean
    Reindexer reindexer(SearchClients clients, CustomerLedger ledger, CustomerHomes homes, BrokerProperties broker, SearchProperties properties) {
        return new Reindexer(clients.local(), ledger, homes::homeOf, broker.region(), properties.indexer().aliasRefresh().multipliedBy(5));
    }

    /** A region's client trusting the JVM's default certificate authorities. */
    static ElasticsearchClient client(String url, SearchProperties properties) {
        return client(url, properties, null);
    }

    /**
     * A region's client, logged in as {@code broker.search.username} on every request when one is set, trusting
     * {@code trust}'s certificate authorities for an {@code https} URL (null: the JVM's defaults).
     */
    static ElasticsearchClient client(String url, SearchProperties properties, SSLContext trust) {
        RestClientBuilder builder = RestClient.builder(HttpHost.create(url))
                .setRequestConfigCallback(c -> c.setConnectTimeout(2_000).setSocketTimeout(30_000));
        if (trust != null) {
            builder.setHttpClientConfigCallback(http -> http.setSSLContext(trust));
        }
        if (!properties.username().isEmpty()) {
            String login = properties.username() + ":" + properties.password();
            builder.setDefaultHeaders(new Header[] {new BasicHeader("Authorization",
                    "Basic " + Base64.getEncoder().encodeToString(login.getBytes(StandardCharsets.UTF_8)))});
        }
        RestClient rest = builder.build();
        return new ElasticsearchClient(new RestClientTransport(rest, new Jackson3JsonpMapper()));
    }

    /** Every region's client; {@link #local()} is this broker's region. */
    record SearchClients(List<Regional> all) {

        record Regional(String region, ElasticsearchClient client) {
        }

        ElasticsearchClient local() {
            return all.get(0).client();
        }

        void close() {
            for (Regional r : all) {
                try {
                    r.client()._transport().close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
    }
}
