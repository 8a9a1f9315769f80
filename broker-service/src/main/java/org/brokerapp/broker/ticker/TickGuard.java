package org.brokerapp.broker.ticker;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.brokerapp.broker.core.PriceUnits;
import org.brokerapp.regions.Listing;
import org.brokerapp.regions.SymbolUniverse;
import org.brokerapp.ticker.Tick;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * Decides whether a well-formed tick may move a price. The tick format says what a tick <em>is</em>;
 * this says whether this broker <em>believes</em> it: a tick that names the wrong exchange for its
 * symbol, a price the matcher cannot hold, an event time far from this broker's clock, a sequence
 * number far past the symbol's last one (or back to 1 while its feed runs) or a price outside the symbol's
 * band is refused, counted by
 * kind and written to {@code ticks.dead-letter} with the reason ({@link TickRefusals}). The checks
 * and the band are described in docs/architecture/tick-trust.md#tick-trust.
 *
 * <p>Called by {@link TickConsumer}'s poll thread only: the per-symbol state is that thread's and
 * is not synchronised.
 */
@Component
public class TickGuard {

    /** What the guard says about a tick. */
    public sealed interface Verdict permits Accepted, Reopened, Restarted, Duplicate, Refused {

        /** Whether the tick may move the price (and be matched). */
        default boolean moves() {
            return !(this instanceof Duplicate || this instanceof Refused);
        }
    }

    /** The tick may move the price. */
    public record Accepted() implements Verdict {
    }

    /** The tick may move the price, and ends a limit state: every tick before it was outside the band for the pause. */
    public record Reopened(String symbol) implements Verdict {
    }

    /** The tick may move the price: the feed restarted (its numbers went back after its old run fell silent). */
    public record Restarted(String symbol) implements Verdict {
    }

    /** A tick at or before the symbol's last sequence number (a redelivery): it moves nothing, and is not a refusal. */
    public record Duplicate() implements Verdict {
    }

    /** The tick is refused: its kind (a metric tag) and the reason, one line. */
    public record Refused(Kind kind, String reason) implements Verdict {
    }

    /** Every way a tick is refused; {@link #tag()} is the value of the metric's {@code kind} tag. */
    public enum Kind {
        MALFORMED("malformed"), UNKNOWN_SYMBOL("unknown.symbol"), WRONG_EXCHANGE("wrong.exchange"), PRICE_UNIT("price.unit"),
        FUTURE("future"), STALE("stale"), SEQUENCE_JUMP("sequence.jump"), SEQUENCE_RESTART("sequence.restart"), BAND("band");

        private final String tag;

        Kind(String tag) {
            this.tag = tag;
        }

        public String tag() {
            return tag;
        }
    }

    private static final Accepted ACCEPTED = new Accepted();
    private static final Duplicate DUPLICATE = new Duplicate();

    /**
     * What the guard remembers of a symbol. The sequence follows the feed: every well-formed tick in
     * sequence advances it, refused by the band or not, so a long refusal never makes the feed's next
     * ticks look like a jump. The band's reference is an anchor: the price at the start of the
     * current band window, so many small steps add up to at most one band per window.
     */
    private static final class SymbolState {
        long sequence;
        Instant eventTime;
        Instant advancedAt;
        BigDecimal last;
        BigDecimal anchor;
        Instant anchoredAt;
        Instant bandRefusedSince;
    }

    private final SymbolUniverse universe;
    private final TickGuardProperties properties;
    private final TickRefusals refusals;
    private final Clock clock;
    private final Map<String, SymbolState> states = new HashMap<>();

    @Autowired
    public TickGuard(SymbolUniverse universe, TickGuardProperties properties, TickRefusals refusals) {
        this(universe, properties, refusals, Clock.systemUTC());
    }

    TickGuard(SymbolUniverse universe, TickGuardProperties properties, TickRefusals refusals, Clock clock) {
        this.universe = universe;
        this.properties = properties;
        this.refusals = refusals;
        this.clock = clock;
    }

    /** The consumer's hook: the verdict on the tick; a refused one is counted and dead-lettered here. */
    public Verdict admit(ConsumerRecord<String, byte[]> record, Tick tick) {
        Verdict verdict = check(tick, clock.instant());
        if (verdict instanceof Refused refused) {
            refusals.refuse(record, refused);
        } else if (verdict instanceof Reopened reopened) {
            refusals.reopened(reopened.symbol());
        }
        return verdict;
    }

    /** The consumer's hook for a record that is not a tick at all: dead-lettered with the decoder's reason. */
    public void malformed(ConsumerRecord<String, byte[]> record, String reason) {
        refusals.refuse(record, new Refused(Kind.MALFORMED, reason));
    }

    /**
     * Forgets what it knew of symbols this instance (again) holds: after a rebalance the symbol's
     * sequence may have moved on legitimately by any amount while another instance held it.
     */
    public void forget(Collection<String> symbols) {
        symbols.forEach(states::remove);
    }

    /** The verdict on {@code tick} at {@code now}; an accepted tick becomes the symbol's reference. */
    Verdict check(Tick tick, Instant now) {
        Optional<Listing> listing = universe.find(tick.symbol());
        if (listing.isEmpty()) {
            return new Refused(Kind.UNKNOWN_SYMBOL, tick.symbol() + " is not a listed symbol");
        }
        if (!listing.get().exchange().equals(tick.exchange())) {
            return new Refused(Kind.WRONG_EXCHANGE, tick.symbol() + " is listed on " + listing.get().exchange() + ", the tick says " + tick.exchange());
        }
        try {
            PriceUnits.of(tick.price());
        } catch (ArithmeticException | IllegalArgumentException e) {
            return new Refused(Kind.PRICE_UNIT, "price " + tick.price().toPlainString() + " is not a whole number of 1/" + PriceUnits.SCALE);
        }
        if (tick.eventTime().isAfter(now.plus(properties.maxAhead()))) {
            return new Refused(Kind.FUTURE, "event time " + tick.eventTime() + " is more than " + properties.maxAhead().toSeconds() + " s ahead of " + now);
        }
        if (tick.eventTime().isBefore(now.minus(properties.maxAge()))) {
            return new Refused(Kind.STALE, "event time " + tick.eventTime() + " is more than " + properties.maxAge().toSeconds() + " s before " + now);
        }
        SymbolState state = states.get(tick.symbol());
        if (state == null) {
            // the first tick since this instance took the symbol sets the base: nothing to compare with
            state = new SymbolState();
            advance(tick, state, now);
            remember(tick, state, now);
            states.put(tick.symbol(), state);
            return ACCEPTED;
        }
        boolean restarted = false;
        if (tick.sequence() <= state.sequence) {
            if (!restartedFeed(tick, state, now)) {
                return tick.sequence() == 1 ? new Refused(Kind.SEQUENCE_RESTART, "sequence 1 while " + tick.symbol()
                        + "'s feed is running (last sequence " + state.sequence + " at " + state.advancedAt + ")") : DUPLICATE;
            }
            restarted = true;
        } else if (tick.sequence() - state.sequence > properties.maxSequenceJump()) {
            return new Refused(Kind.SEQUENCE_JUMP, "sequence " + tick.sequence() + " is more than " + properties.maxSequenceJump()
                    + " past the last " + state.sequence);
        }
        advance(tick, state, now);
        Verdict band = band(tick, state, now);
        if (band instanceof Refused) {
            return band;
        }
        remember(tick, state, now);
        return restarted && band instanceof Accepted ? new Restarted(tick.symbol()) : band;
    }

    /**
     * A feed numbers each symbol from 1 per run: a sequence that went back is a restarted feed only
     * if its old run fell silent ({@code restart-quiet}) and the tick is newer than the old run's
     * last; while the old run goes on, it is a redelivery, or a forgery that would reset the base.
     */
    private boolean restartedFeed(Tick tick, SymbolState state, Instant now) {
        return !Duration.between(state.advancedAt, now).minus(properties.restartQuiet()).isNegative() && tick.eventTime().isAfter(state.eventTime);
    }

    private Verdict band(Tick tick, SymbolState state, Instant now) {
        if (!Duration.between(state.anchoredAt, now).minus(properties.bandWindow()).isNegative()) {
            // a new window: its moves are measured from the last accepted price
            state.anchor = state.last;
            state.anchoredAt = now;
        }
        BigDecimal band = properties.bandOf(tick.symbol());
        BigDecimal move = tick.price().subtract(state.anchor).abs().divide(state.anchor, MathContext.DECIMAL64);
        if (move.compareTo(band) <= 0) {
            return ACCEPTED;
        }
        if (state.bandRefusedSince == null) {
            state.bandRefusedSince = now;
        } else if (!Duration.between(state.bandRefusedSince, now).minus(properties.reopenAfter()).isNegative()) {
            // every tick refused for reopenAfter: the market really moved; reopen on this price
            state.anchor = tick.price();
            state.anchoredAt = now;
            return new Reopened(tick.symbol());
        }
        return new Refused(Kind.BAND, "price " + tick.price().toPlainString() + " is outside " + tick.symbol() + "'s band of "
                + band.movePointRight(2).stripTrailingZeros().toPlainString() + " % around " + state.anchor.toPlainString()
                + " (its price at the band window's start)");
    }

    /** The feed's base moves to this well-formed tick, whether or not its price is believed. */
    private static void advance(Tick tick, SymbolState state, Instant now) {
        state.sequence = tick.sequence();
        state.eventTime = tick.eventTime();
        state.advancedAt = now;
    }

    /** An accepted price: the last one, and the anchor of a symbol seen for the first time. */
    private static void remember(Tick tick, SymbolState state, Instant now) {
        state.last = tick.price();
        if (state.anchor == null) {
            state.anchor = tick.price();
            state.anchoredAt = now;
        }
        state.bandRefusedSince = null;
    }
}
