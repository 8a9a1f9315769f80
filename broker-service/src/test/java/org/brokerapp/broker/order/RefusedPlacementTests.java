package org.brokerapp.broker.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.Mockito.RETURNS_DEEP_STUBS;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.spy;
import static org.mockito.Mockito.when;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.account.AccountLimits;
import org.brokerapp.broker.account.Accounts;
import org.brokerapp.broker.account.CustomerHomes;
import org.brokerapp.broker.account.CustomerLedger;
import org.brokerapp.broker.account.LedgerSnapshot;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderStatus;
import org.brokerapp.broker.core.PlaceOrder;
import org.brokerapp.broker.core.Placement;
import org.brokerapp.broker.deciding.ExchangeOwnership;
import org.brokerapp.broker.events.OrderEventPublisher;
import org.brokerapp.broker.market.LastPrices;
import org.brokerapp.broker.matching.Matcher;
import org.brokerapp.broker.matching.MatcherFixture;
import org.brokerapp.broker.metrics.BrokerMetrics;
import org.brokerapp.broker.routing.OrderRouter;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.regions.Listing;
import org.brokerapp.regions.SymbolUniverse;
import org.junit.jupiter.api.Test;

/**
 * A placement refused for want of shares or cash first catches the owner's account up with the
 * ledger, since a fill reaches the owner as an event a little after its row. The event can come in
 * while that read is under way: the catch-up then finds nothing left to apply, and the placement
 * must still be tried again (OrderMatchingIT's "sold at once" failed once in CI on that race).
 */
class RefusedPlacementTests {

    private static final String REGION = "us-east-1";

    private final CustomerLedger ledger = mock(CustomerLedger.class);
    private final Accounts accounts = spy(new Accounts(ledger, new AccountLimits(10_000, 1_000), java.time.Duration.ofMinutes(10)));
    private final CustomerHomes homes = mock(CustomerHomes.class);
    private final RestingOrderRows rows = mock(RestingOrderRows.class);
    private final OrderEventPublisher events = mock(OrderEventPublisher.class);
    private final SymbolUniverse symbols = mock(SymbolUniverse.class);
    private final BrokerMetrics metrics = mock(BrokerMetrics.class);
    private final Placements service;

    RefusedPlacementTests() {
        when(homes.homeOf("carol")).thenReturn(Optional.of(REGION));
        doReturn(true).when(accounts).owns("carol");
        when(symbols.get("T")).thenReturn(new Listing("T", "NYSE", "AT&T", new BigDecimal("26.00"), 0.2));
        when(rows.write(any())).thenReturn(CompletableFuture.completedFuture(null));
        when(events.publish(any())).thenReturn(CompletableFuture.completedFuture(null));
        when(metrics.placementStep(any(), anyLong(), any())).thenAnswer(call -> call.getArgument(2));
        BrokerProperties properties = mock(BrokerProperties.class);
        when(properties.region()).thenReturn(REGION);
        when(properties.matching()).thenReturn(new BrokerProperties.Matching(8, new BigDecimal("0.10"), 64, java.time.Duration.ofMinutes(5), java.time.Duration.ofSeconds(30), 10_000, java.time.Duration.ofSeconds(30), java.time.Duration.ofMinutes(10)));
        when(properties.market()).thenReturn(new BrokerProperties.Market(Duration.ofSeconds(60)));
        ExchangeOwnership exchanges = mock(ExchangeOwnership.class, RETURNS_DEEP_STUBS);
        Matcher matcher = new MatcherFixture(ledger, events, symbols, exchanges, metrics, mock(LastPrices.class), properties).matcher();
        OrderRouter router = mock(OrderRouter.class);
        OwnerPlacements owner = new OwnerPlacements(rows, accounts, events, matcher, exchanges, router, metrics, properties);
        service = new Placements(homes, accounts, router, owner, exchanges, symbols, metrics, properties);
    }

    @Test
    void aSaleOfSharesWhoseFillArrivesDuringTheCatchUpIsPlaced() {
        when(ledger.read("carol")).thenReturn(Optional.of(new LedgerSnapshot("carol", new BigDecimal("10000.00"), Map.of(), List.of())));
        Order buy = service.place(limit("b-1", Side.BUY, "26.00")).order();
        Order filled = new Order(buy.orderId(), "carol", "b-1", "T", "NYSE", Side.BUY, OrderType.LIMIT, 100, new BigDecimal("26.00"), null,
                buy.reservedCash(), OrderStatus.FILLED, REGION, buy.placedAt(), new BigDecimal("25.50"), Instant.now(), REGION, null);
        // the catch-up's read: the fill's event reaches the owner while it is under way, and the row holds the fill too
        when(ledger.read("carol")).thenAnswer(read -> {
            accounts.filled(filled);
            return Optional.of(new LedgerSnapshot("carol", new BigDecimal("10000.00"), Map.of(), List.of(filled)));
        });

        Placement sell = service.place(limit("s-1", Side.SELL, "27.00"));

        assertThat(sell.created()).isTrue();
        assertThat(sell.order().side()).isEqualTo(Side.SELL);
    }

    private static PlaceOrder limit(String clientOrderId, Side side, String price) {
        return new PlaceOrder("carol", clientOrderId, "T", side, OrderType.LIMIT, 100, new BigDecimal(price));
    }
}
