package org.brokerapp.loadtest.workload;

import java.math.BigDecimal;

/** A symbol the load trades: its exchange, home region and the price its ticks hover around. */
public record TradedSymbol(String symbol, String exchange, String home, BigDecimal basePrice) {
}
