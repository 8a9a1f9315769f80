package org.brokerapp.broker.account;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.UUID;

/**
 * Which order ids a customer may have placed, in about 1.2 bytes per order: a Bloom filter that
 * grows in stages (each twice the last), so an account never holds its closed orders to answer
 * "is this a retry?". A "no" is certain, so a new order costs no ledger read; a "maybe" (every
 * retry, and about one new order in a hundred) is settled by reading the order's ledger row.
 */
final class PlacedOrderIds {

    /** Orders the first stage holds before the next one starts. */
    private static final int FIRST_STAGE = 1024;
    /** Bits per order and hashes per order for about 1 % false "maybe"s per stage. */
    private static final int BITS_PER_ORDER = 10;
    private static final int HASHES = 7;

    private final List<Stage> stages = new ArrayList<>();

    PlacedOrderIds() {
        stages.add(new Stage(FIRST_STAGE));
    }

    void add(UUID orderId) {
        Stage last = stages.get(stages.size() - 1);
        if (last.count == last.capacity) {
            last = new Stage(last.capacity * 2);
            stages.add(last);
        }
        last.add(orderId);
    }

    /** False only if the order was surely never added. */
    boolean mayContain(UUID orderId) {
        for (Stage stage : stages) {
            if (stage.mayContain(orderId)) {
                return true;
            }
        }
        return false;
    }

    private static final class Stage {
        final int capacity;
        final BitSet bits;
        final int size;
        int count;

        Stage(int capacity) {
            this.capacity = capacity;
            this.size = capacity * BITS_PER_ORDER;
            this.bits = new BitSet(size);
        }

        void add(UUID id) {
            for (int i = 0; i < HASHES; i++) {
                bits.set(index(id, i));
            }
            count++;
        }

        boolean mayContain(UUID id) {
            for (int i = 0; i < HASHES; i++) {
                if (!bits.get(index(id, i))) {
                    return false;
                }
            }
            return true;
        }

        /** Double hashing over the id's two halves (its bits are a hash already: name-based UUIDs). */
        private int index(UUID id, int i) {
            long combined = id.getMostSignificantBits() + i * id.getLeastSignificantBits();
            return (int) Math.floorMod(combined, (long) size);
        }
    }
}
