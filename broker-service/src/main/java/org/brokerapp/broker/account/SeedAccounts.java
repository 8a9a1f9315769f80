package org.brokerapp.broker.account;

import java.math.BigDecimal;

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
            if (ledger.open(account.customerId(), account.cash() == null ? BigDecimal.ZERO : account.cash(), account.positions())) {
                opened++;
            }
        }
        log.info("{} accounts configured, {} opened now", properties.allAccounts().size(), opened);
    }
}
