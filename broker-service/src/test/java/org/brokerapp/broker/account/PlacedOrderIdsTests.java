package org.brokerapp.broker.account;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

/** The owner's "may this order have been placed?": never a false "no", rarely a false "maybe", across its growing stages. */
class PlacedOrderIdsTests {

    @Test
    void everyIdAddedIsKnownThroughEveryStageAndFewNewOnesLookPlaced() {
        PlacedOrderIds placed = new PlacedOrderIds();
        List<UUID> added = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            UUID id = UUID.nameUUIDFromBytes(("customer/order-" + i).getBytes());
            placed.add(id);
            added.add(id);
        }

        assertThat(added).allMatch(placed::mayContain);
        long falseMaybes = 0;
        for (int i = 0; i < 20_000; i++) {
            if (placed.mayContain(UUID.nameUUIDFromBytes(("customer/new-" + i).getBytes()))) {
                falseMaybes++;
            }
        }
        // about 1 % per stage, five stages by now: a new order reads the ledger in a few cases in a hundred at most
        assertThat(falseMaybes).isLessThan(20_000 * 6 / 100);
    }
}
