package org.brokerapp.loadtest.measure;

/** The names of the measures a run records, defined once. */
public final class Measures {

    public static final String PLACEMENT = "placement";
    public static final String MARKET = "market";
    public static final String FLOOR = "floor LOCAL_QUORUM write";
    /** A bare TCP round trip across the emulated WAN into a region and back: what a cross-region call pays before any server's work. */
    public static final String WAN_FLOOR = "WAN round trip, bare TCP";
    public static final String TICKER_TO_FILL = "ticker-to-fill";
    public static final String RECEIPT_TO_FILL = "receipt-to-fill";
    /** A tick's intended send to Kafka's acknowledgement (acks=all): the first leg of its way to a broker. */
    public static final String TICK_PRODUCED = "tick produced";
    /** Request to a refusal (any answer but 200/201): how fast a client learns that it must try again or elsewhere. */
    public static final String REFUSED = "refused";
    /** A fill decided (its {@code filledAt} at the decider) to its update reaching a customer's stream. */
    public static final String FILL_TO_CUSTOMER = "fill-to-customer";
    /** Order event durable in Cassandra to searchable in the region's Elasticsearch (the broker's own histogram). */
    public static final String INDEXING_LAG = "indexing lag (durable to searchable)";

    private Measures() {
    }

    /** LIMIT/STOP placement (request to answer), by the region the request went to. */
    public static String placement(String placedIn, boolean crossRegion) {
        return byPlacement(PLACEMENT, placedIn, crossRegion);
    }

    /** MARKET order request to its fill answered, by the region the request went to. */
    public static String market(String placedIn, boolean crossRegion) {
        return byPlacement(MARKET, placedIn, crossRegion);
    }

    /** A refused order's request to its answer, by order type and the region the request went to. */
    public static String refused(String orderType, String placedIn, boolean crossRegion) {
        return byPlacement(REFUSED + " " + orderType, placedIn, crossRegion);
    }

    /** An order measure's name: what, the region the request went to, and whether the order is matched in another. */
    private static String byPlacement(String what, String placedIn, boolean crossRegion) {
        return what + " @" + placedIn + (crossRegion ? " cross-region" : " local");
    }

    /** Fill-to-customer, by the region the customer's stream is in, and whether the fill was decided in another. */
    public static String fillToCustomer(String streamedIn, boolean decidedElsewhere) {
        return byPlacement(FILL_TO_CUSTOMER, streamedIn, decidedElsewhere);
    }

    /** A measure's row for all regions together. */
    public static String allRegions(String measure) {
        return measure + " (all regions)";
    }

    public static String floor(String region) {
        return FLOOR + " @" + region;
    }

    public static String wanFloor(String region) {
        return WAN_FLOOR + " @" + region;
    }

    public static String indexingLag(String region) {
        return INDEXING_LAG + " @" + region;
    }

    public static String tickerToFill(String region) {
        return TICKER_TO_FILL + " @" + region;
    }

    public static String tickProduced(String region) {
        return TICK_PRODUCED + " @" + region;
    }

    public static String receiptToFill(String region) {
        return RECEIPT_TO_FILL + " @" + region;
    }

    public static boolean isCrossRegion(String measure) {
        return measure.endsWith(" cross-region");
    }

    /** The region a measure was named with ({@code @region}), or null. */
    public static String regionOf(String measure) {
        int at = measure.indexOf(" @");
        if (at < 0) {
            return null;
        }
        String rest = measure.substring(at + 2);
        int space = rest.indexOf(' ');
        return space < 0 ? rest : rest.substring(0, space);
    }
}
