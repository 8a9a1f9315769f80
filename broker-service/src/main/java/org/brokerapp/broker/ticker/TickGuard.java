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
 * number far past the symbol's last one or a price outside the symbol's band is refused, counted by
 * kind and written to {@code ticks.dead-letter} with the reason ({@link TickRefusals}). The checks
 * and the band are described in docs/ARCHITECTURE.md, "Tick trust".
 *
 * <p>Called by {@link TickConsumer}'s poll thread only: the per-symbol state is that thread's and
 * is not synchronised.
 */
@Component
public class TickGuard {

    /** What the guard says about a tick. */
    public sealed interface Verdict permits Accepted, Reopened, Refused {
    }

    /** The tick may move the price. */
    public record Accepted() implements Verdict {
    }

    /** The tick may move the price, and ends a limit state: every tick before it was outside the band for the pause. */
    public record Reopened(String symbol) implements Verdict {
    }

    /** The tick is refused: its kind (a metric tag) and the reason, one line. */
    public record Refused(Kind kind, String reason) implements Verdict {
    }

    /** Every way a tick is refused; {@link #tag()} is the value of the metric's {@code kind} tag. */
    public enum Kind {
        MALFORMED("malformed"), UNKNOWN_SYMBOL("unknown.symbol"), WRONG_EXCHANGE("wrong.exchange"), PRICE_UNIT("price.unit"),
        FUTURE("future"), STALE("stale"), SEQUENCE_JUMP("sequence.jump"), BAND("band");

        private final String tag;

        Kind(String tag) {
            this.tag = tag;
        }

        public String tag() {
            return tag;
        }
    }

    private static final Accepted ACCEPTED = new Accepted();

    /** What the guard remembers of a symbol: its last accepted tick, and since when its band refuses everything. */
    private static final class SymbolState {
        long sequence;
        BigDecimal reference;
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

    /** The consumer's hook: true if the tick may go on; a refused one is counted and dead-lettered here. */
    public boolean admit(ConsumerRecord<String, byte[]> record, Tick tick) {
        Verdict verdict = check(tick, clock.instant());
        if (verdict instanceof Refused refused) {
            refusals.refuse(record, refused);
            return false;
        }
        if (verdict instanceof Reopened reopened) {
            refusals.reopened(reopened.symbol());
        }
        return true;
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
            remember(tick, new SymbolState());
            return ACCEPTED;
        }
        boolean feedRestarted = tick.sequence() == 1;
        if (!feedRestarted && tick.sequence() <= state.sequence) {
            // a duplicate or a stale redelivery: the consumer skips it and it moves nothing
            return ACCEPTED;
        }
        if (!feedRestarted && tick.sequence() - state.sequence > properties.maxSequenceJump()) {
            return new Refused(Kind.SEQUENCE_JUMP, "sequence " + tick.sequence() + " is more than " + properties.maxSequenceJump()
                    + " past the last accepted " + state.sequence);
        }
        Verdict band = band(tick, state, now);
        if (!(band instanceof Refused)) {
            remember(tick, state);
        }
        return band;
    }

    private Verdict band(Tick tick, SymbolState state, Instant now) {
        BigDecimal band = properties.bandOf(tick.symbol());
        BigDecimal move = tick.price().subtract(state.reference).abs().divide(state.reference, MathContext.DECIMAL64);
        if (move.compareTo(band) <= 0) {
            return ACCEPTED;
        }
        if (state.bandRefusedSince == null) {
            state.bandRefusedSince = now;
        } else if (!Duration.between(state.bandRefusedSince, now).minus(properties.reopenAfter()).isNegative()) {
            // every tick refused for reopenAfter: the market really moved; reopen on this price
            return new Reopened(tick.symbol());
        }
        return new Refused(Kind.BAND, "price " + tick.price().toPlainString() + " is outside " + tick.symbol() + "'s band of "
                + band.movePointRight(2).stripTrailingZeros().toPlainString() + " % around " + state.reference.toPlainString());
    }

    private void remember(Tick tick, SymbolState state) {
        state.sequence = tick.sequence();
        state.reference = tick.price();
        state.bandRefusedSince = null;
        states.put(tick.symbol(), state);
    }
}
