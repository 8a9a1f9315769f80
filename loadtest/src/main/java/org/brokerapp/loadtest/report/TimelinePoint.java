package org.brokerapp.loadtest.report;

/**
 * Rates over one progress interval ending {@code seconds} after the load started. {@code fills} is -1
 * when the brokers did not answer the scrape in time.
 */
public record TimelinePoint(double seconds, String phase, double ordersSent, double ordersAccepted, double ticks, double fills,
                            double errors) {
}
