package org.brokerapp.broker.ops;

import io.swagger.v3.oas.annotations.Hidden;
import org.brokerapp.broker.account.Accounts;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /admin/accounts/{customerId}} (the operator): the customer's balances as their owner
 * holds them in memory, beside what the ledger folds to, and whether they agree. The load harness
 * asks it for every customer after each run and drill (the seam audit): a fill or cancel booked by
 * one side only shows here first. 503 from an instance that does not own the customer.
 */
@Hidden
@RestController
class AccountAuditController {

    private final Accounts accounts;

    AccountAuditController(Accounts accounts) {
        this.accounts = accounts;
    }

    @GetMapping("/admin/accounts/{customerId}")
    Accounts.Audit audit(@PathVariable String customerId) {
        return accounts.audit(customerId);
    }
}
