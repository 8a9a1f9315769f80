package org.brokerapp.broker.matching;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class SerialQueueTests {

    private record Applied(int command, Thread by) {
    }

    @Test
    void aCommandQueuedWhileNoneIsAppliedIsAppliedOnTheThreadThatQueuedIt() throws InterruptedException {
        List<Applied> applied = new ArrayList<>();
        SerialQueue<Integer> queue = new SerialQueue<>(16, c -> applied.add(new Applied(c, Thread.currentThread())));

        assertThat(queue.offer(1)).isTrue();
        queue.applyQueued();

        assertThat(applied).containsExactly(new Applied(1, Thread.currentThread()));
    }

    @Test
    void aCommandQueuedWhileAnotherThreadAppliesIsAppliedByThatThreadAfterWhatItWasApplying() throws Exception {
        List<Applied> applied = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch applyingFirst = new CountDownLatch(1);
        CountDownLatch letFirstFinish = new CountDownLatch(1);
        SerialQueue<Integer> queue = new SerialQueue<>(16, c -> {
            if (c == 1) {
                applyingFirst.countDown();
                letFirstFinish.await();
            }
            applied.add(new Applied(c, Thread.currentThread()));
        });
        queue.offer(1);
        Thread first = new Thread(() -> {
            try {
                queue.applyQueued();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "first");
        first.start();
        assertThat(applyingFirst.await(10, TimeUnit.SECONDS)).isTrue();

        queue.offer(2);
        queue.applyQueued();
        assertThat(applied).as("the other thread holds the turn: nothing is applied here").isEmpty();
        letFirstFinish.countDown();
        first.join(10_000);

        assertThat(applied).containsExactly(new Applied(1, first), new Applied(2, first));
    }

    @Test
    void commandsQueuedByManyThreadsAreEachAppliedOnceOneAtATimeAndInEachThreadsOrder() throws Exception {
        int threads = 8;
        int perThread = 50_000;
        AtomicInteger applyingNow = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        int[] lastSeen = new int[threads];
        java.util.Arrays.fill(lastSeen, -1);
        AtomicInteger outOfOrder = new AtomicInteger();
        AtomicInteger count = new AtomicInteger();
        SerialQueue<Integer> queue = new SerialQueue<>(64, c -> {
            if (applyingNow.incrementAndGet() != 1) {
                overlaps.incrementAndGet();
            }
            int producer = c / perThread;
            int sequence = c % perThread;
            if (sequence != lastSeen[producer] + 1) {
                outOfOrder.incrementAndGet();
            }
            lastSeen[producer] = sequence;
            count.incrementAndGet();
            applyingNow.decrementAndGet();
        });
        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < threads; p++) {
            int producer = p;
            producers.add(new Thread(() -> {
                try {
                    for (int i = 0; i < perThread; i++) {
                        // a command left queued by an applier that let go fills the queue: give up, and fail below
                        if (!queue.offer(producer * perThread + i, 5, TimeUnit.SECONDS)) {
                            return;
                        }
                        queue.applyQueued();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        producers.forEach(Thread::start);
        for (Thread producer : producers) {
            producer.join(60_000);
        }

        assertThat(count).as("every command applied once, none left queued").hasValue(threads * perThread);
        assertThat(overlaps).as("two commands applied at once").hasValue(0);
        assertThat(outOfOrder).as("a thread's commands applied out of its order").hasValue(0);
    }

    @Test
    void aFullQueueRefusesAnOffer() {
        SerialQueue<Integer> queue = new SerialQueue<>(2, c -> { });

        assertThat(queue.offer(1)).isTrue();
        assertThat(queue.offer(2)).isTrue();
        assertThat(queue.offer(3)).isFalse();
    }
}
