package org.brokerapp.broker.matching;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import com.datastax.oss.driver.api.core.CqlSession;
import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.account.CustomerLedger;
import org.brokerapp.broker.core.DecisionFence;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderStatus;
import org.brokerapp.broker.deciding.DecisionLeases;
import org.brokerapp.broker.schema.BrokerCql;
import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.junit.jupiter.api.Test;

/**
 * Fencing by epoch, lease to ledger, against the real us-east-1 DC: a decider paused between its
 * fence check and its write (a GC pause, a frozen VM) writes after its lease lapsed and the next
 * holder decided. Its late write must not override the newer holder's decision, in whichever order
 * the two land and whatever either clock says. Before fences (decisions stamped with their own
 * time, the earlier one standing), a late fill stamped earlier beat a newer cancel, and a late
 * fill from a clock ahead overwrote a newer fill's price.
 */
@BrokersTest
class DecisionFencingIT {

    private static final String GROUP = "fencing-tests";
    private static final String SYMBOL = "ORCL";

    @Test
    void everyNewHolderOfALeaseDecidesUnderALargerEpoch(Brokers brokers) {
        try (CqlSession session = brokers.stack().cqlSession("us-east-1")) {
            BrokerCql cql = new BrokerCql(session, Brokers.KEYSPACE);
            long previous = 0;
            for (String holder : new String[] {"first", "second", "third"}) {
                try (DecisionLeases leases = new DecisionLeases(session, cql, GROUP, holder)) {
                    assertThat(leases.acquire(Map.of(0, Set.of(SYMBOL)), Duration.ofSeconds(5))).isTrue();
                    long epoch = leases.epochOf(SYMBOL).orElseThrow();
                    assertThat(epoch).as(holder + "'s epoch").isGreaterThan(previous);
                    assertThat(leases.epochOf("AAPL")).as("a symbol of a partition it does not hold").isEmpty();
                    previous = epoch;
                    leases.release(Set.of(0));
                    assertThat(leases.epochOf(SYMBOL)).as("no epoch once released").isEmpty();
                }
            }
        }
    }

    @Test
    void aLateFillFromALapsedHolderDoesNotOverrideTheNewHoldersCancel(Brokers brokers) {
        CustomerLedger ledger = brokers.bean("us-east-1", CustomerLedger.class);
        Order order = placed(ledger);
        Instant now = Instant.now();
        DecisionFence lapsed = new DecisionFence(0, 7);
        DecisionFence newer = new DecisionFence(0, 8);

        ledger.cancel(order.customerId(), order.orderId(), order.placedAt(), now, newer).toCompletableFuture().join();
        // the lapsed holder decided first (an earlier time) but its write lands last
        ledger.fill(order.customerId(), order.orderId(), order.placedAt(), new BigDecimal("100"), now.minusSeconds(2), "us-east-1", lapsed)
                .toCompletableFuture().join();

        assertThat(ledger.readOrder(order.customerId(), order.orderId()).orElseThrow().status()).isEqualTo(OrderStatus.CANCELLED);
    }

    @Test
    void aLateFillFromALapsedHolderWithAClockAheadDoesNotOverwriteTheNewHoldersFill(Brokers brokers) {
        CustomerLedger ledger = brokers.bean("us-east-1", CustomerLedger.class);
        Order order = placed(ledger);
        Instant now = Instant.now();

        ledger.fill(order.customerId(), order.orderId(), order.placedAt(), new BigDecimal("101"), now, "us-east-1", new DecisionFence(0, 8))
                .toCompletableFuture().join();
        // the lapsed holder's clock is a minute ahead
        ledger.fill(order.customerId(), order.orderId(), order.placedAt(), new BigDecimal("100"), now.plusSeconds(60), "us-east-1",
                new DecisionFence(0, 7)).toCompletableFuture().join();

        Order stands = ledger.readOrder(order.customerId(), order.orderId()).orElseThrow();
        assertThat(stands.status()).isEqualTo(OrderStatus.FILLED);
        assertThat(stands.fillPrice()).isEqualByComparingTo("101");
    }

    @Test
    void aFailedOverRegionsDecisionOutranksEveryLeaseEpochOfTheRegionBefore(Brokers brokers) {
        CustomerLedger ledger = brokers.bean("us-east-1", CustomerLedger.class);
        Order order = placed(ledger);
        Instant now = Instant.now();

        ledger.fill(order.customerId(), order.orderId(), order.placedAt(), new BigDecimal("99"), now, "ap-southeast-2", new DecisionFence(1, 1))
                .toCompletableFuture().join();
        ledger.cancel(order.customerId(), order.orderId(), order.placedAt(), now.minusSeconds(1), new DecisionFence(0, 1_000_000))
                .toCompletableFuture().join();

        Order stands = ledger.readOrder(order.customerId(), order.orderId()).orElseThrow();
        assertThat(stands.status()).isEqualTo(OrderStatus.FILLED);
        assertThat(stands.filledBy()).isEqualTo("ap-southeast-2");
    }

    /** A resting BUY of a customer of its own, so no account owner or other test sees it. */
    private static Order placed(CustomerLedger ledger) {
        Order order = new Order(UUID.randomUUID(), "fencing-" + UUID.randomUUID(), null, SYMBOL, "NYSE", Side.BUY, OrderType.LIMIT, 10,
                new BigDecimal("100"), null, new BigDecimal("1000"), OrderStatus.OPEN, "us-east-1", Instant.now().minusSeconds(5), null, null,
                null, null);
        ledger.write(order).toCompletableFuture().join();
        return order;
    }
}
