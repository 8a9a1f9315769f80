package org.brokerapp.broker.search;

import java.time.Duration;
import java.util.Map;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.brokerapp.broker.events.EventTopics;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Search: order and trade documents in an Elasticsearch cluster per region, fed from the
 * region's {@code order-events}. Everything is off unless {@code elasticsearch} names this
 * broker's own region: trading never needs search.
 *
 * @param elasticsearch each region's Elasticsearch base URL as this broker reaches it, e.g.
 *                      {@code us-east-1: http://127.0.1.4:9200} (per region; empty = search off; an
 *                      entry for this broker's region turns on the indexer and the search API, the
 *                      other entries are the regions a customer's search fans out to)
 * @param indexer       the event indexer of this region
 * @param fanOutDeadline how long a search waits for the other regions; those that have not answered
 *                      by then are named in the answer's {@code missingRegions}
 * @param tradeRetention daily trade indices older than this are deleted (the indexer checks hourly)
 * @param maxPage       deepest page a search may ask for (a page is 50 hits; deeper pages cost every region more)
 * @param username      the login every region's cluster asks for (HTTP Basic; empty: none sent). The local stack's is
 *                      {@code broker}; on Kubernetes, ECK's {@code elastic} user or a user of the cluster's own
 * @param password      its password, from the environment ({@code BROKER_SEARCH_PASSWORD}; the local stack writes it to
 *                      {@code <work-dir>/search-credentials/broker.password})
 * @param sslBundle     the Spring SSL bundle ({@code spring.ssl.bundle.*}) whose truststore decides which {@code https}
 *                      clusters a broker trusts (on AWS: {@code data-ca}, Terraform's data CA, which signs Elasticsearch's
 *                      certificate); empty: the JVM's default trust
 */
@Validated
@ConfigurationProperties("broker.search")
public record SearchProperties(@DefaultValue Map<String, String> elasticsearch, @Valid @DefaultValue Indexer indexer,
                               @DefaultValue("2s") Duration fanOutDeadline, @DefaultValue("30d") Duration tradeRetention,
                               @Min(1) @Max(200) @DefaultValue("20") int maxPage, @DefaultValue("") String username,
                               @DefaultValue("") String password, @DefaultValue("") String sslBundle) {

    /** Never the password: this record is logged and shown by the configprops endpoint's callers. */
    @Override
    public String toString() {
        return "SearchProperties[elasticsearch=" + elasticsearch + ", indexer=" + indexer + ", fanOutDeadline=" + fanOutDeadline
                + ", tradeRetention=" + tradeRetention + ", maxPage=" + maxPage + ", username=" + username + ", sslBundle=" + sslBundle + "]";
    }

    /**
     * @param enabled      consume and index this region's events (a second broker instance of a region may leave it off;
     *                     two on are safe: they share the consumer group)
     * @param topic        the topic of order events it reads (the order path's {@code order-events}; tests give theirs)
     * @param groupId      consumer group; empty = {@code search-indexer-<region>}
     * @param maxBatch     most events in one bulk request
     * @param backoffMin   first wait after a failed bulk; doubles up to {@code backoffMax} while Elasticsearch is down
     * @param backoffMax   longest wait between retries
     * @param aliasRefresh how long the indexer trusts its view of the indices it writes ({@code orders-indexing});
     *                     a reindex waits a few times this before it backfills
     * @param batchWait    how long events gather in Kafka before the indexer fetches them (0: each as it comes); search
     *                     lags by up to this much more, for one fetch per interval instead of one per event
     */
    public record Indexer(@DefaultValue("true") boolean enabled, @DefaultValue(EventTopics.ORDER_EVENTS) String topic, @DefaultValue("") String groupId,
                          @Min(1) @Max(10_000) @DefaultValue("1000") int maxBatch,
                          @DefaultValue("200ms") Duration backoffMin, @DefaultValue("10s") Duration backoffMax,
                          @DefaultValue("1s") Duration aliasRefresh, @DefaultValue("500ms") Duration batchWait) {
    }

    public boolean enabledIn(String region) {
        return elasticsearch.containsKey(region);
    }
}
