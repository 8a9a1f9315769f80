package org.brokerapp.loadtest.deployment;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one address of a region whose brokers run as several instances, as a Kubernetes Service or an
 * NLB is in a deployment: each new TCP connection goes to the next ready instance, round robin, and
 * an instance that refuses the connection is skipped. It passes bytes through untouched (TLS ends at
 * the broker, whose certificate names this address's host), and it knows nothing of HTTP: a
 * connection open to an instance that dies is closed, as a load balancer's would be.
 */
final class RegionFront implements AutoCloseable {

    private static final int CONNECT_TIMEOUT_MILLIS = 1_000;

    private final String name;
    private final ServerSocket listener;
    private final List<InetSocketAddress> instances;
    private final Set<InetSocketAddress> ready = ConcurrentHashMap.newKeySet();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger next = new AtomicInteger();
    private final ExecutorService pumps;
    private final Thread acceptor;

    private RegionFront(String name, ServerSocket listener, List<InetSocketAddress> instances) {
        this.name = name;
        this.listener = listener;
        this.instances = List.copyOf(instances);
        this.pumps = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "front-" + name + "-pump");
            t.setDaemon(true);
            return t;
        });
        this.acceptor = new Thread(this::accept, "front-" + name);
        this.acceptor.setDaemon(true);
    }

    /** Listens on {@code address} for the instances at {@code instances}; none is ready until {@link #ready} says so. */
    static RegionFront open(String name, InetSocketAddress address, List<InetSocketAddress> instances) throws IOException {
        ServerSocket listener = new ServerSocket();
        listener.setReuseAddress(true);
        listener.bind(address, 256);
        RegionFront front = new RegionFront(name, listener, instances);
        front.acceptor.start();
        return front;
    }

    /** Where it listens. */
    InetSocketAddress address() {
        return (InetSocketAddress) listener.getLocalSocketAddress();
    }

    /** Whether new connections may go to {@code instance} (its readiness answers UP). */
    void ready(InetSocketAddress instance, boolean isReady) {
        if (isReady) {
            ready.add(instance);
        } else {
            ready.remove(instance);
        }
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                pumps.execute(() -> connect(client));
            } catch (IOException e) {
                if (listener.isClosed()) {
                    return;
                }
            }
        }
    }

    private void connect(Socket client) {
        int start = Math.floorMod(next.getAndIncrement(), instances.size());
        for (int i = 0; i < instances.size(); i++) {
            InetSocketAddress instance = instances.get((start + i) % instances.size());
            if (!ready.contains(instance)) {
                continue;
            }
            Socket upstream = new Socket();
            try {
                upstream.setTcpNoDelay(true);
                upstream.connect(instance, CONNECT_TIMEOUT_MILLIS);
                client.setTcpNoDelay(true);
                open.add(client);
                open.add(upstream);
                pumps.execute(() -> pump(client, upstream));
                pump(upstream, client);
                return;
            } catch (IOException refused) {
                closeQuietly(upstream);
            }
        }
        // no instance ready: the client sees its connection closed, as behind a load balancer with no healthy target
        closeQuietly(client);
    }

    /** Copies {@code from} to {@code to} until either ends; then both sockets close. */
    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException closed) {
            // the other direction closed both, or a peer reset the connection
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private void closeQuietly(Socket socket) {
        open.remove(socket);
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing
        }
    }

    @Override
    public void close() {
        try {
            listener.close();
        } catch (IOException ignored) {
            // closing
        }
        open.forEach(this::closeQuietly);
        pumps.shutdownNow();
    }

    @Override
    public String toString() {
        return "RegionFront[" + name + " " + listener.getLocalSocketAddress() + " -> " + instances + "]";
    }
}
