package org.brokerapp.broker.stream;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The customers' pushed order updates ({@code GET /api/orders/stream}).
 *
 * @param kept       updates kept per customer for a stream resumed with {@code Last-Event-ID}
 * @param keepFor    how long a customer's updates are still kept after their last stream closed; a customer who
 *                   holds no stream costs nothing
 * @param streams    open streams one customer may hold on one broker; a new one past it ends their oldest
 * @param backlog    updates one stream may have unsent before it is closed (the client resumes)
 * @param heartbeat  how often an idle stream gets a comment, so proxies keep it and a gone client is noticed
 * @param lifetime   how long a stream stays open before the broker ends it (the client resumes)
 */
@Validated
@ConfigurationProperties("broker.stream")
public record StreamProperties(@DefaultValue("256") @Min(1) @Max(100_000) int kept,
                               @DefaultValue("10m") Duration keepFor,
                               @DefaultValue("4") @Min(1) @Max(100) int streams,
                               @DefaultValue("1000") @Min(1) int backlog,
                               @DefaultValue("15s") Duration heartbeat,
                               @DefaultValue("30m") Duration lifetime) {
}
