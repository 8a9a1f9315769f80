package org.brokerapp.broker.ops;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The live ops page ({@code /ops}).
 *
 * @param prometheusUrl     the Prometheus the page reads from, as the viewer's browser reaches it (it queries
 *                          Prometheus's HTTP API directly, which answers cross-origin by default); empty: the page
 *                          asks for one ({@code /ops/?prometheus=URL} works too). The local stack's is
 *                          {@code http://127.<2i>.0.1:9090}; the load harness passes it to the brokers it starts.
 * @param tickToFillSla     ticker-to-fill p99 target drawn on the page (same as the alert rule's and the harness's
 *                          {@code --sla-ms} default)
 * @param crossRegionBudget a routed MARKET order's p99 target as a multiple of the configured round trip
 */
@ConfigurationProperties("broker.ops")
public record OpsProperties(@DefaultValue("") String prometheusUrl, @DefaultValue("10ms") Duration tickToFillSla,
                            @DefaultValue("1.3") double crossRegionBudget) {
}
