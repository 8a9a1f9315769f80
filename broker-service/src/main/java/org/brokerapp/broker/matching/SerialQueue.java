package org.brokerapp.broker.matching;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Commands applied one at a time, in the order they were queued, by whichever thread finds no other
 * applying them. A thread that queues a command may apply it at once (with any queued before it),
 * on its own thread: no hand-over to another thread, so no wait for that thread to get a core. If
 * another thread is applying, that one applies it too before it lets go, and looks again after
 * letting go, so nothing queued is left behind. The queue is bounded: a full queue refuses an offer.
 */
final class SerialQueue<C> {

    /** Applies one command; called by one thread at a time, in queue order. */
    @FunctionalInterface
    interface Applier<C> {
        void apply(C command) throws InterruptedException;
    }

    private final BlockingQueue<C> queued;
    private final ReentrantLock applying = new ReentrantLock();
    private final Applier<C> applier;

    SerialQueue(int capacity, Applier<C> applier) {
        this.queued = new ArrayBlockingQueue<>(capacity);
        this.applier = applier;
    }

    /** Queues {@code command}; false if the queue is full. */
    boolean offer(C command) {
        return queued.offer(command);
    }

    /** Queues {@code command}, waiting up to {@code timeout} for room; false if there was none. */
    boolean offer(C command, long timeout, TimeUnit unit) throws InterruptedException {
        return queued.offer(command, timeout, unit);
    }

    /** Queues {@code command}, waiting for room as long as it takes. */
    void put(C command) throws InterruptedException {
        queued.put(command);
    }

    /** Applies everything queued, unless another thread is applying: that one then applies it all. */
    void applyQueued() throws InterruptedException {
        while (!queued.isEmpty() && applying.tryLock()) {
            try {
                C command;
                while ((command = queued.poll()) != null) {
                    applier.apply(command);
                }
            } finally {
                applying.unlock();
            }
        }
    }
}
