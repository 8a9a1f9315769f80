package org.brokerapp.broker.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.argThat;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import com.datastax.oss.driver.api.core.DriverTimeoutException;
import org.brokerapp.api.OrderType;
import org.brokerapp.api.Side;
import org.brokerapp.broker.account.Accounts;
import org.brokerapp.broker.account.CustomerHomes;
import org.brokerapp.broker.account.Report;
import org.brokerapp.broker.core.Order;
import org.brokerapp.broker.core.OrderStatus;
import org.brokerapp.broker.events.OrderEvent;
import org.brokerapp.broker.events.OrderEventCodec;
import org.brokerapp.broker.matching.Matcher;
import org.brokerapp.broker.peer.PeerLinks;
import org.brokerapp.broker.peer.PeerResponse;
import org.brokerapp.broker.system.BrokerProperties;
import org.brokerapp.broker.ticker.SymbolHolders;
import org.junit.jupiter.api.Test;

/**
 * What the intake answers when Cassandra fails under it. The collaborators are stand-ins: this is
 * the intake's own rule (a failure means "bring the batch again", never an exception that starts the
 * relay's consumer over); the relay against real Cassandra and Kafka is in {@link KafkaOutageIT}.
 */
class EventIntakeTests {

    private static final Instant AT = Instant.parse("2026-11-25T04:00:00Z");

    private final Matcher matcher = mock(Matcher.class);
    private final Accounts accounts = mock(Accounts.class);
    private final CustomerHomes homes = mock(CustomerHomes.class);
    private final SymbolHolders holders = mock(SymbolHolders.class);
    private final BrokerProperties properties = mock(BrokerProperties.class);
    private final PeerLinks links = mock(PeerLinks.class);
    private final EventAuthority authority = mock(EventAuthority.class);
    /** What the intake let the customers' updates see. */
    private final List<OrderEvent> observed = new java.util.ArrayList<>();
    private final EventIntake intake;

    EventIntakeTests() {
        when(properties.region()).thenReturn("us-east-1");
        when(authority.refuses(any())).thenReturn(false);
        intake = new EventIntake(matcher, accounts, homes, holders, new PassOn(links, new OrderEventCodec(), properties), authority, observed::add,
                properties);
    }

    @Test
    void aCassandraTimeoutFindingASymbolsHolderAsksForTheBatchAgainInsteadOfThrowing() {
        when(matcher.take(any(), anyBoolean())).thenReturn(Matcher.Taking.NOT_HELD_HERE);
        when(holders.otherHolderOf("IBM")).thenThrow(new DriverTimeoutException("Query timed out after PT5S"));

        assertThat(intake.take("ap-southeast-2", List.of(placed("alice")), false, false)).isFalse();
    }

    @Test
    void aFailedFillStopsTheBatchSoNoLaterEventOvertakesIt() {
        when(homes.homeOf(anyString())).thenReturn(Optional.of("us-east-1"));
        when(accounts.owns(anyString())).thenReturn(true);
        doThrow(new DriverTimeoutException("Query timed out after PT5S")).when(accounts).filled(argThat(o -> o.customerId().equals("alice")));

        assertThat(intake.take("us-east-1", List.of(filled("alice"), filled("bob")), false, false)).isFalse();

        verify(accounts, never()).filled(argThat(o -> o.customerId().equals("bob")));
    }

    @Test
    void theSameBatchIsTakenOnceCassandraAnswers() {
        when(homes.homeOf(anyString())).thenReturn(Optional.of("us-east-1"));
        when(accounts.owns(anyString())).thenReturn(true);
        when(accounts.filled(any())).thenReturn(new Report.Applied());

        assertThat(intake.take("us-east-1", List.of(filled("alice"), filled("bob")), false, false)).isTrue();

        verify(accounts).filled(argThat(o -> o.customerId().equals("bob")));
    }

    /** The account changed owner between the question and the fill: the report goes on to the new owner, not into a copy here. */
    @Test
    void aFillMeetingAHandOverGoesOnToTheNewOwner() throws Exception {
        when(homes.homeOf(anyString())).thenReturn(Optional.of("us-east-1"));
        when(accounts.owns(anyString())).thenReturn(true);
        when(accounts.filled(any())).thenReturn(new Report.NotOwned());
        when(accounts.ownerUrl("alice")).thenReturn(Optional.of("http://127.2.1.4:8080"));
        when(links.post(eq("us-east-1"), eq(java.net.URI.create("http://127.2.1.4:8080")), anyString(), any(), any(), eq(PeerLinks.MANY_CUSTOMERS)))
                .thenReturn(new PeerResponse(200, "", Optional.empty()));

        assertThat(intake.take("us-east-1", List.of(filled("alice")), false, false)).isTrue();

        verify(links).post(eq("us-east-1"), eq(java.net.URI.create("http://127.2.1.4:8080")), anyString(), any(), any(), eq(PeerLinks.MANY_CUSTOMERS));
    }

    @Test
    void aFillMeetingAHandOverWithNoOwnerYetIsAskedForAgain() {
        when(homes.homeOf(anyString())).thenReturn(Optional.of("us-east-1"));
        when(accounts.owns(anyString())).thenReturn(true);
        when(accounts.filled(any())).thenReturn(new Report.NotOwned());
        when(accounts.ownerUrl("alice")).thenReturn(Optional.empty());

        assertThat(intake.take("us-east-1", List.of(filled("alice")), false, false)).isFalse();
    }

    /** An event handed in by a region other than the one it names: refused and counted, never booked, and not asked for again. */
    @Test
    void anEventHandedInByAnotherRegionThanItsOwnIsRefusedAndNeverReachesTheAccount() {
        when(homes.homeOf(anyString())).thenReturn(Optional.of("us-east-1"));
        when(accounts.owns(anyString())).thenReturn(true);

        assertThat(intake.take("ap-southeast-2", List.of(filled("alice")), false, false)).isTrue();

        verify(accounts, never()).filled(any());
        verify(authority).refused(any(), argThat(r -> r.rule().equals("not.sender")));
        assertThat(observed).as("a refused event is pushed to nobody").isEmpty();
    }

    /** The owner said the fill is not its order's: counted, taken (sending it again changes nothing), the batch goes on. */
    @Test
    void aFillTheOwnerRefusesIsCountedAndTheBatchGoesOn() {
        when(homes.homeOf(anyString())).thenReturn(Optional.of("us-east-1"));
        when(accounts.owns(anyString())).thenReturn(true);
        when(accounts.filled(any())).thenReturn(new Report.Refused("a fill price must be above 0"), new Report.Applied());

        assertThat(intake.take("us-east-1", List.of(filled("alice"), filled("bob")), false, false)).isTrue();

        verify(authority).refusedByOwner(any(), eq("a fill price must be above 0"));
        verify(accounts).filled(argThat(o -> o.customerId().equals("bob")));
        assertThat(observed).as("only the fill the owner booked is pushed").extracting(OrderEvent::customerId).containsExactly("bob");
    }

    private static OrderEvent placed(String customer) {
        Order open = new Order(UUID.randomUUID(), customer, "c-1", "IBM", "NYSE", Side.BUY, OrderType.LIMIT, 10, new BigDecimal("295.10"), null,
                new BigDecimal("2951.00"), OrderStatus.OPEN, "ap-southeast-2", AT, null, null, null, null);
        return OrderEvent.placed(open, AT.plusMillis(3), "ap-southeast-2");
    }

    private static OrderEvent filled(String customer) {
        Order filled = new Order(UUID.randomUUID(), customer, "c-1", "IBM", "NYSE", Side.BUY, OrderType.LIMIT, 10, new BigDecimal("295.10"), null,
                new BigDecimal("2951.00"), OrderStatus.FILLED, "ap-southeast-2", AT, new BigDecimal("295.00"), AT.plusSeconds(5), "us-east-1",
                AT.plusSeconds(5));
        return OrderEvent.filled(filled, AT.plusSeconds(5), AT.plusSeconds(5), AT.plusSeconds(5), "us-east-1");
    }
}
