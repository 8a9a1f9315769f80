package org.brokerapp.broker.order;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Optional;

import com.datastax.oss.driver.api.core.DriverException;
import org.brokerapp.broker.core.OrderProblem;
import org.brokerapp.broker.core.PlaceOrder;
import org.brokerapp.broker.core.Placement;
import org.brokerapp.broker.matching.Matcher;
import org.brokerapp.broker.routing.OrderRouter;
import org.brokerapp.broker.routing.RoutedMarketOrder;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.broker.ticker.SymbolHolders;
import org.springframework.stereotype.Component;

/**
 * MARKET orders sent here by their customer's owner, because this region matches their symbol:
 * executed by the matcher when this instance decides on the symbol, else passed to the instance
 * that does ({@code passedOn}: it was already, once).
 *
 * <p>Refused (4xx, or 503 with Retry-After) only when nothing was executed, since the owner then
 * releases the reservation; a decision whose write did not answer is a 504, and the owner keeps it.
 */
@Component
class RoutedExecutions {

    private final Matcher matcher;
    private final SymbolHolders holders;
    private final OrderRouter router;
    private final String region;

    RoutedExecutions(Matcher matcher, SymbolHolders holders, OrderRouter router, BrokerProperties properties) {
        this.matcher = matcher;
        this.holders = holders;
        this.router = router;
        this.region = properties.region();
    }

    Placement execute(PlaceOrder command, String placedRegion, BigDecimal maxPrice, boolean retry, boolean passedOn) {
        try {
            return executeOnce(command, placedRegion, maxPrice, retry, passedOn);
        } catch (DriverException unknown) {
            if (!retry) {
                throw unknown; // nothing was decided before this attempt: a refusal is the truth
            }
            // an earlier attempt may have executed it: a database failure now says nothing about that
            throw new OrderProblem.RegionTimedOut(region, "order of " + command.customerId() + " may have executed in " + region
                    + " (the database did not answer): retry with the same clientOrderId, which never executes twice");
        }
    }

    private Placement executeOnce(PlaceOrder command, String placedRegion, BigDecimal maxPrice, boolean retry, boolean passedOn) {
        Optional<Placement> executed = matcher.executeRouted(command, placedRegion, maxPrice, retry);
        if (executed.isPresent()) {
            return executed.get();
        }
        Optional<String> holder = passedOn ? Optional.empty() : holders.otherHolderOf(command.symbol());
        if (holder.isPresent()) {
            return router.executeInRegion(holder.get(), new RoutedMarketOrder(command.customerId(), command.clientOrderId(), command.symbol(),
                    command.side(), command.quantity(), placedRegion, maxPrice, retry));
        }
        String changing = command.symbol() + "'s matcher in " + region + " is changing hands";
        if (retry) {
            // an earlier attempt may have executed it, and its decider's lease has not lapsed yet
            throw new OrderProblem.RegionTimedOut(region, changing + "; the order may have executed: retry with the same clientOrderId, which never executes twice");
        }
        throw new OrderProblem.RegionUnreachable(region, Duration.ofSeconds(1), changing + "; nothing was executed: retry");
    }
}
