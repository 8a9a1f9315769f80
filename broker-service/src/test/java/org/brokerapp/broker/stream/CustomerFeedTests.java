package org.brokerapp.broker.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.brokerapp.broker.core.OrderProblem;
import org.junit.jupiter.api.Test;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/** What a resumed stream gets: everything after its position, once; or a resync when that is not kept any more. */
class CustomerFeedTests {

    private static final String EPOCH = "run1";
    private static final Update RESYNC = new Update(-1, "", "", "resync", "{}");

    /** An emitter that records the events' names and ids as sent (a direct executor sends at once). */
    private static final class Recorder extends SseEmitter {
        final List<String> sent = new ArrayList<>();

        @Override
        public void send(SseEventBuilder builder) {
            StringBuilder text = new StringBuilder();
            builder.build().forEach(part -> text.append(part.getData()));
            String event = text.toString();
            String name = event.contains("event:") ? event.replaceAll("(?s).*event:([^\\n]*)\\n.*", "$1") : "comment";
            String id = event.contains("id:") ? event.replaceAll("(?s).*id:([^\\n]*)\\n.*", "$1") : "";
            sent.add(name + "@" + id);
        }
    }

    private final CustomerFeed feed = new CustomerFeed(3, 0);

    @Test
    void aStreamResumedAfterItsLastUpdateGetsWhatItMissedThenTheNewOnes() {
        Recorder first = new Recorder();
        feed.subscribe(client(first), Optional.empty(), EPOCH, 4, RESYNC);
        feed.append(update(1, "a/PLACED"));
        first.complete();
        feed.remove(client(first));
        feed.append(update(2, "a/FILLED"));
        feed.append(update(3, "b/PLACED"));

        Recorder resumed = new Recorder();
        boolean lost = feed.subscribe(client(resumed), Optional.of(new StreamPosition(EPOCH, 1)), EPOCH, 4, RESYNC);
        feed.append(update(4, "b/CANCELLED"));

        assertThat(lost).isFalse();
        assertThat(first.sent).containsExactly("PLACED@run1.1");
        assertThat(resumed.sent).containsExactly("FILLED@run1.2", "PLACED@run1.3", "CANCELLED@run1.4");
    }

    @Test
    void anEventTakenTwiceIsSentOnce() {
        Recorder stream = new Recorder();
        feed.subscribe(client(stream), Optional.empty(), EPOCH, 4, RESYNC);

        assertThat(feed.append(update(1, "a/FILLED"))).isTrue();
        assertThat(feed.append(update(2, "a/FILLED"))).as("relayed back after it was published here").isFalse();
        assertThat(stream.sent).containsExactly("FILLED@run1.1");
    }

    @Test
    void aPositionNoLongerKeptOrFromAnotherRunStartsWithResyncThenAllThatIsKept() {
        for (int n = 1; n <= 5; n++) {
            feed.append(update(n, "o" + n + "/PLACED"));
        }
        Recorder tooOld = new Recorder();
        Recorder otherRun = new Recorder();

        assertThat(feed.subscribe(client(tooOld), Optional.of(new StreamPosition(EPOCH, 1)), EPOCH, 4, RESYNC)).isTrue();
        assertThat(feed.subscribe(client(otherRun), Optional.of(new StreamPosition("run0", 9)), EPOCH, 4, RESYNC)).isTrue();
        assertThat(tooOld.sent).containsExactly("resync@", "PLACED@run1.3", "PLACED@run1.4", "PLACED@run1.5");
        assertThat(otherRun.sent).isEqualTo(tooOld.sent);
    }

    @Test
    void aStreamPastTheLimitEndsTheCustomersOldest() {
        StreamClient oldest = client(new Recorder());
        StreamClient newer = client(new Recorder());
        feed.subscribe(oldest, Optional.empty(), EPOCH, 2, RESYNC);
        feed.subscribe(newer, Optional.empty(), EPOCH, 2, RESYNC);

        StreamClient newest = client(new Recorder());
        feed.subscribe(newest, Optional.empty(), EPOCH, 2, RESYNC);

        assertThat(oldest.isClosed()).isTrue();
        assertThat(feed.clients()).containsExactly(newer, newest);
    }

    @Test
    void aStreamThatFallsBehindItsBacklogIsClosedSoItsClientResumes() {
        List<Runnable> neverRun = new ArrayList<>();
        StreamClient slow = new StreamClient("alice", new Recorder(), neverRun::add, 2);
        feed.subscribe(slow, Optional.empty(), EPOCH, 4, RESYNC);
        feed.append(update(1, "a/PLACED"));
        feed.append(update(2, "b/PLACED"));
        assertThat(slow.isClosed()).isFalse();

        feed.append(update(3, "c/PLACED"));
        assertThat(slow.isClosed()).isTrue();
    }

    @Test
    void aLastEventIdThatIsNotOneIsA400() {
        assertThat(StreamPosition.parse(null)).isEmpty();
        assertThat(StreamPosition.parse("run1.42")).contains(new StreamPosition("run1", 42));
        for (String bad : List.of("42", ".42", "run1.x", "run1.-1", "x".repeat(50) + ".1", "a\"b.1")) {
            assertThatThrownBy(() -> StreamPosition.parse(bad)).as(bad).isInstanceOf(OrderProblem.Invalid.class);
        }
    }

    private final java.util.Map<Recorder, StreamClient> clients = new java.util.IdentityHashMap<>();

    private StreamClient client(Recorder emitter) {
        return clients.computeIfAbsent(emitter, e -> new StreamClient("alice", e, Runnable::run, 100));
    }

    private static Update update(long sequence, String eventId) {
        return new Update(sequence, new StreamPosition(EPOCH, sequence).id(), eventId, eventId.substring(eventId.indexOf('/') + 1), "{}");
    }
}
