package org.brokerapp.broker.matching;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.util.Optional;
import java.util.function.Supplier;

import org.brokerapp.broker.account.CustomerLedger;
import org.brokerapp.broker.deciding.ExchangeOwnership;
import org.brokerapp.broker.events.OrderEventPublisher;
import org.brokerapp.broker.market.LastPrices;
import org.brokerapp.broker.metrics.BrokerMetrics;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.regions.SymbolUniverse;

/**
 * The matcher's door for unit tests of the stages before it: a real {@link Matcher} and market
 * executor over a stand-in {@link MatchingService}, whose decisions on a symbol a test turns on.
 */
public final class MatcherFixture {

    private final MatchingService engine = mock(MatchingService.class);
    private final Matcher matcher;

    public MatcherFixture(CustomerLedger ledger, OrderEventPublisher events, SymbolUniverse symbols, ExchangeOwnership exchanges,
                          BrokerMetrics metrics, LastPrices lastPrices, BrokerProperties properties) {
        MarketExecutor market = new MarketExecutor(ledger, events, engine, symbols, exchanges, metrics, lastPrices, properties);
        this.matcher = new Matcher(engine, market, exchanges, ledger);
    }

    public Matcher matcher() {
        return matcher;
    }

    /** This instance decides on {@code symbol}: a MARKET execution on it runs here. */
    @SuppressWarnings("unchecked")
    public void deciding(String symbol) {
        when(engine.executing(eq(symbol), any())).thenAnswer(call -> Optional.of(((Supplier<Object>) call.getArgument(1)).get()));
    }

    /** Another instance decides on {@code symbol}. */
    public void notDeciding(String symbol) {
        when(engine.executing(eq(symbol), any())).thenReturn(Optional.empty());
    }
}
