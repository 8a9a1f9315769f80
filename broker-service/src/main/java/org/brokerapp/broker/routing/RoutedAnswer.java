package org.brokerapp.broker.routing;

import org.brokerapp.broker.core.Order;
import org.springframework.http.HttpStatus;

/** What the home region said: both are answers (the link works), unlike a timeout or a failure. */
sealed interface RoutedAnswer {

    /** Executed, by this request ({@code created}) or by an earlier one with the same key. */
    record Executed(Order order, boolean created) implements RoutedAnswer {
    }

    /** Refused for a reason of the order's own (holdings, price), as problem details. */
    record Refused(String region, HttpStatus status, String title, String detail, java.util.Optional<java.time.Duration> retryAfter)
            implements RoutedAnswer {
    }
}
