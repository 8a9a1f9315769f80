package org.brokerapp.broker.account;

/** What became of a fill or cancel reported to the customer's owner ({@link Accounts#filled}, {@link Accounts#cancelled}). */
public sealed interface Report {

    /** Applied, or nothing to change (the order unknown here, or closed already): the report is done with. */
    record Applied() implements Report {
    }

    /** This instance does not own the customer (any more): the report is the owner's. */
    record NotOwned() implements Report {
    }

    /** Not a fill of the customer's order: nothing changed, and the report is not to be sent again. */
    record Refused(String reason) implements Report {
    }
}
