package org.brokerapp.broker.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.RETURNS_DEEP_STUBS;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.spy;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.account.AccountLimits;
import org.brokerapp.broker.account.AccountView;
import org.brokerapp.broker.account.Accounts;
import org.brokerapp.broker.account.CustomerHomes;
import org.brokerapp.broker.account.CustomerLedger;
import org.brokerapp.broker.account.LedgerSnapshot;
import org.brokerapp.broker.core.OrderProblem;
import org.brokerapp.broker.core.PlaceOrder;
import org.brokerapp.broker.deciding.ExchangeOwnership;
import org.brokerapp.broker.events.OrderEventPublisher;
import org.brokerapp.broker.market.LastPrices;
import org.brokerapp.broker.matching.MatcherFixture;
import org.brokerapp.broker.metrics.BrokerMetrics;
import org.brokerapp.broker.routing.OrderRouter;
import org.brokerapp.broker.routing.RoutedMarketOrder;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.broker.ticker.SymbolHolders;
import org.brokerapp.regions.Listing;
import org.brokerapp.regions.SymbolUniverse;
import org.junit.jupiter.api.Test;

/**
 * A MARKET order matched in another region, at both ends, when something fails under it. The owner
 * releases the order's reservation on a refusal (4xx, or 503 with Retry-After, which is also how a
 * database failure is answered) and keeps it on a 504, until a retry tells. So the executing
 * region answers a retry's database failure with a 504 (an earlier attempt may have executed), and
 * the owner releases at once what never left it (the region's circuit open) rather than hold the
 * cash until a retry that may never come. The collaborators are stand-ins (the account is real):
 * this is the service's own rule; routed orders against real Cassandra and two regions are in
 * {@code MarketOrderDecidedOnceIT} and {@code MarketOrderRoutingIT}.
 */
class RoutedMarketOrderTests {

    private static final DriverTimeoutException TIMEOUT = new DriverTimeoutException("Query timed out after PT2S");
    private static final BigDecimal MAX_PRICE = new BigDecimal("150.00");
    private static final String EXECUTING = "us-east-1";
    private static final String OWNING = "ap-southeast-2";

    private final CustomerLedger ledger = mock(CustomerLedger.class);
    private final SymbolHolders holders = mock(SymbolHolders.class);
    private final CustomerHomes homes = mock(CustomerHomes.class);
    private final LastPrices lastPrices = mock(LastPrices.class);
    private final OrderRouter router = mock(OrderRouter.class);
    private final Accounts accounts = spy(new Accounts(ledger, new AccountLimits(10_000, 1_000), java.time.Duration.ofMinutes(10)));
    private final SymbolUniverse symbols = mock(SymbolUniverse.class);
    private final ExchangeOwnership exchanges = mock(ExchangeOwnership.class, RETURNS_DEEP_STUBS);

    private MatcherFixture matcher;

    RoutedMarketOrderTests() {
        when(symbols.get("IBM")).thenReturn(new Listing("IBM", "NYSE", "IBM", new BigDecimal("140.00"), 0.2));
        when(exchanges.ownerOf("NYSE").region()).thenReturn(EXECUTING);
    }

    @Test
    void aRetryWhoseLedgerReadFailsIsATimeoutSoTheOwnerKeepsTheReservation() {
        OrderService executing = matchingRegion();
        deciding();
        when(ledger.readOrder(eq("alice"), any())).thenThrow(TIMEOUT);

        assertThatThrownBy(() -> executing.executeRouted(order("alice", "m-1"), OWNING, MAX_PRICE, true, false))
                .isInstanceOf(OrderProblem.RegionTimedOut.class)
                .hasMessageContaining("may have executed");
    }

    @Test
    void aRetryThatCannotFindTheSymbolsHolderIsATimeoutToo() {
        OrderService executing = matchingRegion();
        matcher.notDeciding("IBM");
        when(holders.otherHolderOf("IBM")).thenThrow(TIMEOUT);

        assertThatThrownBy(() -> executing.executeRouted(order("alice", "m-1"), OWNING, MAX_PRICE, true, false))
                .isInstanceOf(OrderProblem.RegionTimedOut.class);
    }

    @Test
    void aFirstAttemptThatCannotFindTheSymbolsHolderIsRefusedAsTheDatabaseFailure() {
        OrderService executing = matchingRegion();
        matcher.notDeciding("IBM");
        when(holders.otherHolderOf("IBM")).thenThrow(TIMEOUT);

        assertThatThrownBy(() -> executing.executeRouted(order("alice", "m-1"), OWNING, MAX_PRICE, false, false))
                .isInstanceOf(DriverException.class);
    }

    @Test
    void anOrderRefusedBeforeItLeftTheOwnerGivesItsCashBackAtOnce() {
        OrderService owning = ownerOf("bob", "1000.00");
        when(router.execute(eq(EXECUTING), any())).thenThrow(OrderProblem.RegionUnreachable.beforeSending(EXECUTING, Duration.ofSeconds(5),
                EXECUTING + " is unreachable (circuit open after repeated failures)"));

        assertThatThrownBy(() -> owning.place(order("bob", "m-1"))).isInstanceOf(OrderProblem.RegionUnreachable.class);

        assertThat(availableCash("bob")).as("nothing went out, nothing executed").isEqualByComparingTo("1000.00");
    }

    @Test
    void aNewOrderForARegionKnownCutOffIsRefusedBeforeItsPriceIsReadOrItsCashReserved() {
        OrderService owning = ownerOf("bob", "1000.00");
        doThrow(OrderProblem.RegionUnreachable.beforeSending(EXECUTING, Duration.ofSeconds(5), EXECUTING + " is unreachable (circuit open)"))
                .when(router).requireReachable(EXECUTING, "IBM");

        assertThatThrownBy(() -> owning.place(order("bob", "m-1"))).isInstanceOf(OrderProblem.RegionUnreachable.class);

        verify(lastPrices, never()).of("IBM");
        verify(router, never()).execute(any(), any());
        assertThat(availableCash("bob")).isEqualByComparingTo("1000.00");
    }

    @Test
    void aRetryOfAnOrderTheOwnerHoldsIsNotRefusedByTheCircuitButAnsweredAsBefore() {
        OrderService owning = ownerOf("bob", "1000.00");
        when(router.execute(eq(EXECUTING), any())).thenThrow(new OrderProblem.RegionUnreachable(EXECUTING, Duration.ofSeconds(1),
                EXECUTING + " could not be reached (IOException)"));
        assertThatThrownBy(() -> owning.place(order("bob", "m-1"))).isInstanceOf(OrderProblem.RegionUnreachable.class);
        doThrow(OrderProblem.RegionUnreachable.beforeSending(EXECUTING, Duration.ofSeconds(5), EXECUTING + " is unreachable (circuit open)"))
                .when(router).requireReachable(EXECUTING, "IBM");

        assertThatThrownBy(() -> owning.place(order("bob", "m-1"))).isInstanceOf(OrderProblem.RegionUnreachable.class);

        verify(router, times(2)).execute(eq(EXECUTING), any());
        assertThat(availableCash("bob")).as("the first attempt's hold stays until a retry tells").isEqualByComparingTo("340.00");
    }

    @Test
    void anOrderThatMayHaveReachedTheExecutingRegionKeepsItsCashUntilARetryTells() {
        OrderService owning = ownerOf("bob", "1000.00");
        when(router.execute(eq(EXECUTING), any())).thenThrow(new OrderProblem.RegionUnreachable(EXECUTING, Duration.ofSeconds(1),
                EXECUTING + " could not be reached (IOException)"));

        assertThatThrownBy(() -> owning.place(order("bob", "m-1"))).isInstanceOf(OrderProblem.RegionUnreachable.class);

        // 6 shares at 100.00 and the 10 % collar: 660.00 held
        assertThat(availableCash("bob")).isEqualByComparingTo("340.00");
    }

    /**
     * A retry of an order whose first attempt may have executed is capped by what that attempt
     * reserved (110.00 a share), not by today's price: had the price risen, a fill under the new cap
     * would cost more than is held, and the owner could never book it.
     */
    @Test
    void aRetryAfterThePriceRoseIsCappedByTheFirstAttemptsReservation() {
        OrderService owning = ownerOf("bob", "1000.00");
        when(router.execute(eq(EXECUTING), any())).thenThrow(new OrderProblem.RegionUnreachable(EXECUTING, Duration.ofSeconds(1),
                EXECUTING + " could not be reached (IOException)"));
        assertThatThrownBy(() -> owning.place(order("bob", "m-1"))).isInstanceOf(OrderProblem.RegionUnreachable.class);
        when(lastPrices.of("IBM")).thenReturn(Optional.of(new LastPrices.LastPrice("IBM", new BigDecimal("120.00"), 2, Instant.now(), EXECUTING)));

        assertThatThrownBy(() -> owning.place(order("bob", "m-1"))).isInstanceOf(OrderProblem.RegionUnreachable.class);

        org.mockito.ArgumentCaptor<RoutedMarketOrder> sent = org.mockito.ArgumentCaptor.forClass(RoutedMarketOrder.class);
        verify(router, times(2)).execute(eq(EXECUTING), sent.capture());
        assertThat(sent.getAllValues()).extracting(RoutedMarketOrder::maxPrice).allSatisfy(max -> assertThat(max).isEqualByComparingTo("110.00"));
    }

    private static PlaceOrder order(String customerId, String clientOrderId) {
        return new PlaceOrder(customerId, clientOrderId, "IBM", Side.BUY, OrderType.MARKET, 6, null);
    }

    /** This instance decides on IBM: the execution runs here. */
    private void deciding() {
        matcher.deciding("IBM");
    }

    /** The executing region's service: it matches NYSE. */
    private OrderService matchingRegion() {
        when(exchanges.holds("NYSE")).thenReturn(true);
        return serviceIn(EXECUTING);
    }

    /** The owning region's service, owning {@code customerId}'s account (opened with {@code cash}); IBM last at 100.00. */
    private OrderService ownerOf(String customerId, String cash) {
        when(homes.homeOf(customerId)).thenReturn(Optional.of(OWNING));
        doReturn(true).when(accounts).owns(customerId);
        when(ledger.read(customerId)).thenReturn(Optional.of(new LedgerSnapshot(customerId, new BigDecimal(cash), Map.of(), List.of())));
        when(lastPrices.of("IBM")).thenReturn(Optional.of(new LastPrices.LastPrice("IBM", new BigDecimal("100.00"), 1, Instant.now(), EXECUTING)));
        return serviceIn(OWNING);
    }

    private BigDecimal availableCash(String customerId) {
        return accounts.withAccount(customerId, AccountView::availableCash);
    }

    private OrderService serviceIn(String region) {
        BrokerProperties properties = mock(BrokerProperties.class);
        when(properties.region()).thenReturn(region);
        when(properties.matching()).thenReturn(new BrokerProperties.Matching(8, new BigDecimal("0.10"), 64, java.time.Duration.ofMinutes(5), java.time.Duration.ofSeconds(30), 10_000, java.time.Duration.ofSeconds(30), java.time.Duration.ofMinutes(10)));
        when(properties.market()).thenReturn(new BrokerProperties.Market(Duration.ofSeconds(60)));
        BrokerMetrics metrics = mock(BrokerMetrics.class);
        OrderEventPublisher events = mock(OrderEventPublisher.class);
        matcher = new MatcherFixture(ledger, events, symbols, exchanges, metrics, lastPrices, properties);
        OwnerPlacements owner = new OwnerPlacements(mock(RestingOrderRows.class), accounts, events, matcher.matcher(), exchanges, router, metrics, properties);
        return new OrderService(new Placements(homes, accounts, router, owner, exchanges, symbols, metrics, properties),
                new RoutedExecutions(matcher.matcher(), holders, router, properties), null, null);
    }
}
