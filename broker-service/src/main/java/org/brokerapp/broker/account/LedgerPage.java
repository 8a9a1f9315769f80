package org.brokerapp.broker.account;

import java.util.List;
import java.util.Optional;

import org.brokerapp.broker.core.Order;

/**
 * One page of a customer's orders, in the ledger's order (by order id), and the token of the next
 * page if the partition holds more rows. A token is bound to its customer's list: the driver checks
 * it against the statement it continues, so a token made up or taken from another list is refused.
 */
public record LedgerPage(List<Order> orders, Optional<String> next) {
}
