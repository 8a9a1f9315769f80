package org.brokerapp.broker.ops;

import org.brokerapp.broker.deciding.AccountOwnership;
import org.brokerapp.broker.matching.MatchingService;
import org.brokerapp.broker.ticker.TickConsumer;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.stereotype.Component;

/**
 * A starting instance takes customers from the region's other instances only once it serves: its
 * web server answers (the application is ready) and it matches its symbols. Customers it takes are
 * forwarded to it by the others at once, so taking them earlier, while it still starts, only makes
 * them wait. Readiness ({@link MatchingHealth}) then follows once it holds their leases.
 */
@Component
class AccountsJoinOnceServing implements ApplicationListener<ApplicationReadyEvent> {

    private volatile boolean started;

    AccountsJoinOnceServing(AccountOwnership accounts, MatchingService matcher, TickConsumer ticks) {
        accounts.joinOnlyWhen(() -> started && ticks.isPolling() && matcher.ownedSymbols() > 0);
    }

    @Override
    public void onApplicationEvent(ApplicationReadyEvent event) {
        started = true;
    }
}
