package org.brokerapp.broker.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.RETURNS_DEEP_STUBS;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.account.CustomerHomes;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderStatus;
import org.brokerapp.broker.deciding.ExchangeOwnership;
import org.brokerapp.broker.events.OrderEvent;
import org.brokerapp.regions.SymbolUniverse;
import org.junit.jupiter.api.Test;

/**
 * Who may report what (#57): an expiry, like a fill or a cancel, only from a region deciding the
 * symbol's exchange. A Sydney key that leaked cannot expire a NYSE order and free its cash early.
 */
class EventAuthorityTests {

    private static final Instant AT = Instant.parse("2026-12-07T21:00:00Z");

    /** Deep stubs: the owner's record is the deciding package's own. */
    private final ExchangeOwnership exchanges = mock(ExchangeOwnership.class, RETURNS_DEEP_STUBS);
    private final EventAuthority authority = new EventAuthority(exchanges, mock(CustomerHomes.class), SymbolUniverse.loadDefault(),
            mock(org.brokerapp.broker.metrics.BrokerMetrics.class));

    EventAuthorityTests() {
        when(exchanges.homeOf("NYSE")).thenReturn("us-east-1");
        when(exchanges.ownerOf("NYSE").region()).thenReturn("us-east-1");
    }

    @Test
    void anExpiryIsTakenFromTheRegionDecidingTheExchangeAndRefusedFromAnyOther() {
        assertThat(authority.refusal(expired("us-east-1"))).isEmpty();

        Optional<EventAuthority.Refusal> forged = authority.refusal(expired("ap-southeast-2"));

        assertThat(forged).hasValueSatisfying(r -> {
            assertThat(r.rule()).isEqualTo("not.decider");
            assertThat(r.reason()).contains("cannot report a EXPIRED");
        });
    }

    @Test
    void anExpiryIsTakenFromTheRegionTheExchangeFailedOverTo() {
        when(exchanges.ownerOf("NYSE").region()).thenReturn("ap-southeast-2");

        assertThat(authority.refusal(expired("ap-southeast-2"))).isEmpty();
    }

    private static OrderEvent expired(String region) {
        Order order = new Order(UUID.randomUUID(), "alice", null, "IBM", "NYSE", Side.BUY, OrderType.LIMIT, 10, new BigDecimal("1.00"), null,
                null, OrderStatus.EXPIRED, null, null, null, null, null, AT);
        return OrderEvent.expired(order, AT.plusMillis(5), region);
    }
}
