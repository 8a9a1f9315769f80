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
 * @param passwordChecksPerSource password checks (BCrypt) a second from one source address; a source over it waits
 *                        for its turn, then is answered 429 with Retry-After ({@link PasswordChecks})
 * @param passwordChecks  password checks a second on this broker instance, all sources together
 * @param passwordCheckWait how long a login waits for its turn before the 429
 * @param passwordCheckSources source addresses whose limits are remembered (the least recent are forgotten)
 * @param failedLoginDelay how long a refused password login waits for its answer, without a thread ({@link FailedLoginDelay})
 * @param ordersPerSecond new orders a customer may place per second, counted by their owner across every region and instance
 *                        (and by each instance's edge before it reads a request); beyond it 429 with Retry-After
 */
@Validated
@ConfigurationProperties("broker.security")
public record SecurityProperties(
        String tokenKey,
        @DefaultValue("1h") Duration tokenTtl,
        @Min(1) @DefaultValue("5") int passwordChecksPerSource,
        @Min(1) @DefaultValue("20") int passwordChecks,
        @DefaultValue("2s") Duration passwordCheckWait,
        @Min(1) @DefaultValue("10000") int passwordCheckSources,
        @DefaultValue("25ms") Duration failedLoginDelay,
        @Min(1) @DefaultValue("50") int ordersPerSecond) {
}
