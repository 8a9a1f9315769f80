package org.brokerapp.loadtest.workload;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import org.brokerapp.loadtest.deployment.Target;
import org.brokerapp.loadtest.measure.LatencyBook;
import org.brokerapp.loadtest.measure.Measures;

/**
 * The WAN's floor: a bare TCP round trip across the emulated WAN into a region and back, timed
 * beside the load as the floor write is. A cross-region MARKET order's "RTT + x" then has a
 * measured RTT to set against, not only the configured one: the emulator is a process on the same
 * two cores, and each crossing costs it time of its own.
 *
 * <p>The harness answers the echo itself, on the region's broker address ({@link Target.WanEcho});
 * every {@link #EVERY} one {@value #BYTES}-byte message goes out over a kept-open connection and is
 * read back. A round trip that fails (a region cut off) is no sample, and no error of the run.
 */
public final class WanFloor implements AutoCloseable {

    static final Duration EVERY = Duration.ofMillis(500);
    static final int BYTES = 64;
    private static final int TIMEOUT_MILLIS = 5_000;
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private final AtomicBoolean running = new AtomicBoolean(true);
    private final ServerSocket echo;
    private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();

    /** Starts the echo and the round trips into {@code region}. */
    public WanFloor(String region, Target.WanEcho echo, LatencyBook latencies) throws IOException {
        this.echo = new ServerSocket();
        this.echo.setReuseAddress(true);
        this.echo.bind(echo.listen());
        start("wan-echo-" + region, this::answer);
        start("wan-floor-" + region, () -> roundTrips(echo.across(), Measures.wanFloor(region), latencies));
    }

    private void start(String name, Runnable work) {
        Thread thread = new Thread(work, name);
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
    }

    private void answer() {
        while (running.get()) {
            try {
                Socket peer = echo.accept();
                connections.add(peer);
                start("wan-echo-connection", () -> echo(peer));
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void echo(Socket peer) {
        try (peer; InputStream in = peer.getInputStream(); OutputStream out = peer.getOutputStream()) {
            peer.setTcpNoDelay(true);
            byte[] buffer = new byte[BYTES];
            for (int n; (n = in.read(buffer)) > 0; ) {
                out.write(buffer, 0, n);
            }
        } catch (IOException gone) {
            // the harness closed its end
        } finally {
            connections.remove(peer);
            threads.remove(Thread.currentThread());
        }
    }

    private void roundTrips(InetSocketAddress across, String measure, LatencyBook latencies) {
        byte[] message = new byte[BYTES];
        byte[] answer = new byte[BYTES];
        long next = System.nanoTime();
        while (running.get()) {
            try (Socket socket = new Socket()) {
                connections.add(socket);
                socket.setTcpNoDelay(true);
                socket.connect(across, TIMEOUT_MILLIS);
                socket.setSoTimeout(TIMEOUT_MILLIS);
                OutputStream out = socket.getOutputStream();
                InputStream in = socket.getInputStream();
                while (running.get()) {
                    next = sleepUntil(next + EVERY.toNanos());
                    long sent = System.nanoTime();
                    out.write(message);
                    out.flush();
                    if (in.readNBytes(answer, 0, BYTES) < BYTES) {
                        break;
                    }
                    latencies.record(measure, sent);
                }
            } catch (IOException noRoundTrip) {
                next = sleepUntil(next + EVERY.toNanos());
            } finally {
                connections.removeIf(Socket::isClosed);
            }
        }
    }

    private long sleepUntil(long deadline) {
        long wait = deadline - System.nanoTime();
        if (wait > 0) {
            try {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                running.set(false);
            }
        }
        return Math.max(deadline, System.nanoTime() - EVERY.toNanos());
    }

    /**
     * Stops the round trips and the echo, and returns once their threads are gone. A socket closed
     * under a thread blocked in {@code accept} stays bound until that thread leaves the call, so
     * waiting for it is what makes the address free again on return.
     */
    @Override
    public void close() {
        running.set(false);
        closeQuietly(echo);
        connections.forEach(WanFloor::closeQuietly);
        threads.forEach(Thread::interrupt);
        long deadline = System.nanoTime() + CLOSE_WAIT.toNanos();
        for (Thread thread : threads) {
            try {
                thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void closeQuietly(java.io.Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
