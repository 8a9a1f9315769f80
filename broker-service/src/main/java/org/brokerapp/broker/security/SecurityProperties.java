package org.brokerapp.broker.security;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How customers authenticate and how fast they may go. Secrets have no default: outside the
 * {@code local} profile the broker refuses to start without them ({@link SecretsCheck}).
 *
 * @param tokenKey        base64 of at least 32 random bytes: the HMAC-SHA256 key that signs and verifies bearer
 *                        tokens (required; the same in every region, so a token from one region is good in all)
 * @param tokenTtl        how long an issued token is good for
 * @param failedLogins    failed password checks allowed per customer and {@code failedLoginsPeriod}; beyond them
 *                        {@code POST /api/token} answers 429 with Retry-After, right password or not
 * @param failedLoginsPeriod the period of {@code failedLogins}
 * @param ordersPerSecond orders a customer may place per second on this broker instance; beyond it 429 with Retry-After
 */
@Validated
@ConfigurationProperties("broker.security")
public record SecurityProperties(
        String tokenKey,
        @DefaultValue("1h") Duration tokenTtl,
        @Min(1) @DefaultValue("5") int failedLogins,
        @DefaultValue("1m") Duration failedLoginsPeriod,
        @Min(1) @DefaultValue("50") int ordersPerSecond) {
}
