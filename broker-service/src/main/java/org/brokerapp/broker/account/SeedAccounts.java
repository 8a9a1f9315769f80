package org.brokerapp.broker.account;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;

import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.QueryConsistencyException;
import org.brokerapp.broker.system.BrokerProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/** Opens the configured demo and test accounts at start-up; an existing account is left as it is. */
@Component
class SeedAccounts implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(SeedAccounts.class);
    private static final int ATTEMPTS = 10;
    private static final Duration PAUSE = Duration.ofMillis(200);

    private final CustomerLedger ledger;
    private final BrokerProperties properties;

    SeedAccounts(CustomerLedger ledger, BrokerProperties properties) {
        this.ledger = ledger;
        this.properties = properties;
    }

    @Override
    public void run(ApplicationArguments args) {
        int opened = 0;
        for (BrokerProperties.SeedAccount account : properties.allAccounts()) {
            BigDecimal cash = account.cash() == null ? BigDecimal.ZERO : account.cash();
            if (openRetrying(() -> ledger.open(account.customerId(), cash, account.positions()), ATTEMPTS, PAUSE)) {
                opened++;
            }
        }
        log.info("{} accounts configured, {} opened now", properties.allAccounts().size(), opened);
    }

    /**
     * Every instance of every region opens the same accounts as it starts, each with a conditional
     * insert: started together, their Paxos rounds contend, and one may come back unknown or timed
     * out ({@code CASWriteUnknownException} failed a broker's start in a broker-kill drill). The
     * insert is idempotent ({@code IF NOT EXISTS}), so it is sent again after a random pause; what
     * Cassandra refuses for any other reason fails the start at once.
     */
    static boolean openRetrying(BooleanSupplier open, int attempts, Duration pause) {
        for (int attempt = 1; ; attempt++) {
            try {
                return open.getAsBoolean();
            } catch (QueryConsistencyException | DriverTimeoutException contended) {
                if (attempt >= attempts) {
                    throw contended;
                }
                log.info("opening an account: {} (attempt {} of {}); sending it again", contended.getMessage(), attempt, attempts);
                sleep(pause.plusMillis(ThreadLocalRandom.current().nextLong(pause.toMillis() + 1)));
            }
        }
    }

    private static void sleep(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while opening the seed accounts", e);
        }
    }
}
