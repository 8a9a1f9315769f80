package org.brokerapp.broker.order;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import org.brokerapp.broker.account.Accounts;
import org.brokerapp.broker.account.CustomerHomes;
import org.brokerapp.broker.account.CustomerLedger;
import org.brokerapp.broker.core.OrderProblem;
import org.brokerapp.broker.core.OrderType;
import org.brokerapp.broker.core.PlaceOrder;
import org.brokerapp.broker.core.Side;
import org.brokerapp.broker.events.OrderEventPublisher;
import org.brokerapp.broker.failover.ExchangeOwnership;
import org.brokerapp.broker.market.LastPrices;
import org.brokerapp.broker.matching.MatchingService;
import org.brokerapp.broker.matching.OpenOrders;
import org.brokerapp.broker.metrics.BrokerMetrics;
import org.brokerapp.broker.routing.OrderRouter;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.broker.ticker.SymbolHolders;
import org.brokerapp.regions.Listing;
import org.brokerapp.regions.SymbolUniverse;
import org.junit.jupiter.api.Test;

/**
 * What the executing region answers a routed MARKET order when Cassandra fails under it. The owner
 * releases the order's reservation on a refusal (4xx, or 503 with Retry-After, which is how a
 * database failure is answered) and keeps it on a 504. A first attempt decided nothing before, so
 * a refusal is the truth; a retry follows an attempt that may have executed, so a database failure
 * on its way (reading the ledger for the order, finding the symbol's holder) must be a 504. The
 * collaborators are stand-ins: this is the service's own rule; routed orders against real
 * Cassandra and two regions are in {@code MarketOrderDecidedOnceIT} and {@code MarketOrderRoutingIT}.
 */
class RoutedMarketRetryTests {

    private static final DriverTimeoutException TIMEOUT = new DriverTimeoutException("Query timed out after PT2S");
    private static final PlaceOrder ORDER = new PlaceOrder("alice", "m-1", "IBM", Side.BUY, OrderType.MARKET, 10, null);
    private static final BigDecimal MAX_PRICE = new BigDecimal("150.00");

    private final CustomerLedger ledger = mock(CustomerLedger.class);
    private final MatchingService matcher = mock(MatchingService.class);
    private final SymbolHolders holders = mock(SymbolHolders.class);
    private final OrderService service;

    RoutedMarketRetryTests() {
        SymbolUniverse symbols = mock(SymbolUniverse.class);
        when(symbols.get("IBM")).thenReturn(new Listing("IBM", "NYSE", "IBM", new BigDecimal("140.00"), 0.2));
        ExchangeOwnership exchanges = mock(ExchangeOwnership.class);
        when(exchanges.holds("NYSE")).thenReturn(true);
        BrokerProperties properties = mock(BrokerProperties.class);
        when(properties.region()).thenReturn("us-east-1");
        when(properties.matching()).thenReturn(new BrokerProperties.Matching(8, new BigDecimal("0.10"), 64));
        when(properties.market()).thenReturn(new BrokerProperties.Market(Duration.ofSeconds(60)));
        service = new OrderService(ledger, mock(OpenOrders.class), mock(Accounts.class), mock(CustomerHomes.class),
                mock(OrderEventPublisher.class), matcher, symbols, exchanges, mock(BrokerMetrics.class), properties,
                mock(LastPrices.class), mock(OrderRouter.class), holders);
    }

    @Test
    void aRetryWhoseLedgerReadFailsIsATimeoutSoTheOwnerKeepsTheReservation() {
        deciding();
        when(ledger.readOrder(eq("alice"), any())).thenThrow(TIMEOUT);

        assertThatThrownBy(() -> service.executeRouted(ORDER, "ap-southeast-2", MAX_PRICE, true, false))
                .isInstanceOf(OrderProblem.RegionTimedOut.class)
                .hasMessageContaining("may have executed");
    }

    @Test
    void aRetryThatCannotFindTheSymbolsHolderIsATimeoutToo() {
        when(matcher.executing(eq("IBM"), any())).thenReturn(Optional.empty());
        when(holders.otherHolderOf("IBM")).thenThrow(TIMEOUT);

        assertThatThrownBy(() -> service.executeRouted(ORDER, "ap-southeast-2", MAX_PRICE, true, false))
                .isInstanceOf(OrderProblem.RegionTimedOut.class);
    }

    @Test
    void aFirstAttemptThatCannotFindTheSymbolsHolderIsRefusedAsTheDatabaseFailure() {
        when(matcher.executing(eq("IBM"), any())).thenReturn(Optional.empty());
        when(holders.otherHolderOf("IBM")).thenThrow(TIMEOUT);

        assertThatThrownBy(() -> service.executeRouted(ORDER, "ap-southeast-2", MAX_PRICE, false, false))
                .isInstanceOf(DriverException.class);
    }

    /** This instance decides on IBM: the execution runs here. */
    @SuppressWarnings("unchecked")
    private void deciding() {
        when(matcher.executing(eq("IBM"), any())).thenAnswer(call -> Optional.of(((Supplier<Object>) call.getArgument(1)).get()));
    }
}
