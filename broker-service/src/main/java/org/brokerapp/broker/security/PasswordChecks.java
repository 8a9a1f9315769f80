package org.brokerapp.broker.security;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import org.springframework.stereotype.Component;

/**
 * The broker's budget of password checks. A BCrypt check costs about 65 ms of CPU here, so a
 * stranger sending wrong passwords could otherwise take a core for every 15 a second. Every check
 * that will run BCrypt (not a remembered success, not an unknown login, which is refused without a
 * hash) first takes a permit from its source address's limiter and then one from the broker's: a
 * source over its rate waits for its turn (up to {@code broker.security.password-check-wait}) and
 * is then refused (429). The limits are per source and overall, never per customer, so a stranger
 * failing logins in a customer's name slows only the stranger. The sources remembered are bounded.
 */
@Component
class PasswordChecks {

    private final RateLimiterConfig perSource;
    private final RateLimiter overall;
    private final Map<String, RateLimiter> sources;
    private final Duration wait;

    PasswordChecks(SecurityProperties properties) {
        this.wait = properties.passwordCheckWait();
        this.perSource = config(properties.passwordChecksPerSource(), wait);
        this.overall = RateLimiter.of("password-checks", config(properties.passwordChecks(), wait));
        int max = properties.passwordCheckSources();
        this.sources = Collections.synchronizedMap(new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, RateLimiter> eldest) {
                return size() > max;
            }
        });
    }

    /**
     * Waits for a permit of {@code source} and of the broker, before a password check.
     *
     * @throws Exhausted if none came within the wait: the caller answers 429, and checks nothing
     */
    void admit(String source) {
        RateLimiter mine = sources.computeIfAbsent(source == null ? "" : source, s -> RateLimiter.of("password-checks-" + s, perSource));
        if (!mine.acquirePermission() || !overall.acquirePermission()) {
            throw new Exhausted(wait);
        }
    }

    private static RateLimiterConfig config(int perSecond, Duration wait) {
        return RateLimiterConfig.custom().limitForPeriod(perSecond).limitRefreshPeriod(Duration.ofSeconds(1)).timeoutDuration(wait).build();
    }

    /** No permit for a password check: 429 with Retry-After, as an authentication failure so the security chain answers it. */
    static final class Exhausted extends org.springframework.security.core.AuthenticationException {

        private final Duration retryAfter;

        Exhausted(Duration retryAfter) {
            super("too many password checks from this address, or on this broker; wait and retry");
            this.retryAfter = retryAfter;
        }

        Duration retryAfter() {
            return retryAfter;
        }
    }
}
