package org.brokerapp.broker.system;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * A loop on a thread of its own, started with the application context and stopped, then joined,
 * with it. Lower phases start first and stop last.
 */
public abstract class LoopThread implements SmartLifecycle {

    private final String name;
    private final int phase;
    private volatile Thread thread;
    private volatile boolean running;

    protected LoopThread(String name, int phase) {
        this.name = name;
        this.phase = phase;
    }

    /** Runs until {@link #isRunning()} turns false. */
    protected abstract void loop();

    /** One round of a loop that {@link #startOverOnFailure} runs again after a failure. */
    @FunctionalInterface
    protected interface Round {
        void run() throws InterruptedException;
    }

    /**
     * Runs {@code round} until stopped, and again a second after any failure: a consumer loop
     * must never stop for good because Kafka went away or a callback threw.
     */
    protected final void startOverOnFailure(Round round) {
        Logger log = LoggerFactory.getLogger(getClass());
        while (isRunning()) {
            try {
                round.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                if (!isRunning()) {
                    // woken to stop
                    return;
                }
                log.error("{} failed; starting over in 1 s", name, e);
                try {
                    Thread.sleep(1_000);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** Wakes the loop from a blocking call when stopping; nothing by default. */
    protected void wake() {
    }

    @Override
    public void start() {
        running = true;
        thread = new Thread(this::loop, name);
        thread.start();
    }

    @Override
    public void stop() {
        running = false;
        wake();
        Thread t = thread;
        if (t != null) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return phase;
    }
}
