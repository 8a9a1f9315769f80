package org.brokerapp.broker.ticker;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * What a tick must satisfy before it may move a price ({@link TickGuard}); the same in every region
 * unless a region trades symbols that need other bands. See docs/architecture/tick-trust.md#tick-trust.
 *
 * @param maxAhead        a tick whose event time is further ahead of this broker's clock is refused
 *                        ({@code future}); covers clock skew between feed and broker
 * @param maxAge          a tick whose event time is older than this is refused ({@code stale}): it is
 *                        not a price to trade on (a replay with original times needs a larger value)
 * @param maxSequenceJump a tick whose sequence number is more than this past the symbol's last
 *                        accepted one is refused ({@code sequence.jump}); a forged huge sequence would
 *                        otherwise make every later real tick look like a duplicate
 * @param priceBand       limit-up/limit-down: a tick more than this fraction away from the symbol's
 *                        reference price is refused ({@code band}); the reference is the symbol's last
 *                        accepted price at the start of the current band window, so a walk of small steps
 *                        moves a price at most one band per window
 * @param bandWindow      how long one reference price holds (as the exchanges' limit-up/limit-down does)
 * @param priceBands      per-symbol bands overriding {@code priceBand}, e.g. {@code {GME: 0.25}}
 * @param reopenAfter     a symbol whose every tick was refused by its band for this long reopens: its
 *                        next tick is accepted as the new reference (a real move, like an exchange's
 *                        trading pause ending), counted as {@code band.reopened}
 * @param restartQuiet    a sequence that goes back is a restarted feed only after the symbol's feed was
 *                        silent this long (and its event time is newer); before, a 1 is refused
 *                        ({@code sequence.restart}) and any other number is a duplicate
 * @param deadLetter      whether refused and malformed ticks are written to {@code ticks.dead-letter}
 */
@Validated
@ConfigurationProperties("broker.ticks")
public record TickGuardProperties(
        @DefaultValue("5s") Duration maxAhead,
        @DefaultValue("10m") Duration maxAge,
        @Min(1) @DefaultValue("10000") long maxSequenceJump,
        @DecimalMin(value = "0", inclusive = false) @DecimalMax("1") @DefaultValue("0.10") BigDecimal priceBand,
        @DefaultValue Map<String, BigDecimal> priceBands,
        @DefaultValue("5m") Duration bandWindow,
        @DefaultValue("5m") Duration reopenAfter,
        @DefaultValue("2s") Duration restartQuiet,
        @DefaultValue("true") boolean deadLetter) {

    /** The band of a symbol: its own, or the default. */
    public BigDecimal bandOf(String symbol) {
        return priceBands.getOrDefault(symbol, priceBand);
    }
}
