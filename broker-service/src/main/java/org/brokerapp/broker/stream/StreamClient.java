package org.brokerapp.broker.stream;

import java.io.IOException;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * One open stream: the updates not sent yet, sent in order by one task at a time on the senders'
 * pool, so a client that reads slowly holds a sender, never the thread that decided the update.
 * Past {@code backlog} unsent updates it is closed; its client resumes with {@code Last-Event-ID}.
 */
final class StreamClient {

    /** A comment line, which an idle stream gets now and then. */
    static final Update HEARTBEAT = new Update(-1, "", "", "", "");
    /**
     * The comment a stream starts with: the first bytes flush the answer's status and headers, which
     * the client waits for before it reads (without them it waited for the first heartbeat).
     */
    static final Update OPENED = new Update(-1, "", "", "", "");

    private final String customerId;
    private final SseEmitter emitter;
    private final Executor senders;
    private final int backlog;
    private final Queue<Update> unsent = new ConcurrentLinkedQueue<>();
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicBoolean sending = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();

    StreamClient(String customerId, SseEmitter emitter, Executor senders, int backlog) {
        this.customerId = customerId;
        this.emitter = emitter;
        this.senders = senders;
        this.backlog = backlog;
    }

    String customerId() {
        return customerId;
    }

    SseEmitter emitter() {
        return emitter;
    }

    void offer(Update update) {
        if (closed.get()) {
            return;
        }
        if (pending.incrementAndGet() > backlog) {
            close();
            return;
        }
        unsent.add(update);
        if (sending.compareAndSet(false, true)) {
            senders.execute(this::send);
        }
    }

    private void send() {
        try {
            for (Update update = unsent.poll(); update != null && !closed.get(); update = unsent.poll()) {
                pending.decrementAndGet();
                if (update == HEARTBEAT) {
                    emitter.send(SseEmitter.event().comment("heartbeat"));
                } else if (update == OPENED) {
                    emitter.send(SseEmitter.event().comment("open"));
                } else if (update.id().isEmpty()) {
                    // no id: an empty one would reset the client's Last-Event-ID
                    emitter.send(SseEmitter.event().name(update.name()).data(update.json()));
                } else {
                    emitter.send(SseEmitter.event().id(update.id()).name(update.name()).data(update.json()));
                }
            }
        } catch (IOException | IllegalStateException gone) {
            close();
        } finally {
            sending.set(false);
        }
        if (!unsent.isEmpty() && !closed.get() && sending.compareAndSet(false, true)) {
            senders.execute(this::send);
        }
    }

    /** Ends the stream; the client may resume where it was. */
    void close() {
        if (closed.compareAndSet(false, true)) {
            unsent.clear();
            emitter.complete();
        }
    }

    boolean isClosed() {
        return closed.get();
    }
}
