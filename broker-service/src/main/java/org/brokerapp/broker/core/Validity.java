package org.brokerapp.broker.core;

import java.time.Instant;
import java.util.Objects;

import org.brokerapp.api.TimeInForce;

/**
 * How long an order may rest: its time in force and, for one that expires (DAY, GTD), the instant
 * it does. The instant is fixed when the order is placed, by its owner, from the exchange's session
 * calendar (DAY) or the customer's {@code expireAt} (GTD); the symbol's decider expires it then.
 */
public record Validity(TimeInForce timeInForce, Instant expiresAt) {

    /** Good till cancelled: what an order placed without a time in force gets. */
    public static final Validity GOOD_TILL_CANCELLED = new Validity(TimeInForce.GTC, null);
    /** Immediate or cancel: every MARKET order, which trades at once or is refused. */
    public static final Validity IMMEDIATE = new Validity(TimeInForce.IOC, null);

    public Validity {
        Objects.requireNonNull(timeInForce, "timeInForce");
        if (timeInForce == TimeInForce.GTD && expiresAt == null) {
            throw new IllegalArgumentException("a GTD order needs the time it expires");
        }
        if ((timeInForce == TimeInForce.GTC || timeInForce == TimeInForce.IOC || timeInForce == TimeInForce.FOK) && expiresAt != null) {
            throw new IllegalArgumentException("a " + timeInForce + " order has no expiry time");
        }
    }

    /** The validity an event or row carries; null for one written before time in force existed (the order's type then says). */
    public static Validity of(TimeInForce timeInForce, Instant expiresAt) {
        return timeInForce == null ? null : new Validity(timeInForce, expiresAt);
    }

    public boolean expires() {
        return expiresAt != null;
    }
}
