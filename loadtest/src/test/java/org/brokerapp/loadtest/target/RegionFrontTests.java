package org.brokerapp.loadtest.target;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A region's front over real loopback sockets: two "instances" that answer each line with their name and the line. */
class RegionFrontTests {

    private final List<AutoCloseable> closing = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final java.util.Map<InetSocketAddress, ServerSocket> servers = new java.util.HashMap<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
    }

    /** Answers every connection's first line with "name:line", then keeps the connection open for more. */
    private InetSocketAddress instance(String name) throws IOException {
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        closing.add(server);
        servers.put((InetSocketAddress) server.getLocalSocketAddress(), server);
        Thread t = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    closing.add(s);
                    Thread echo = new Thread(() -> {
                        try (InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                            java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
                            int c;
                            while ((c = in.read()) >= 0) {
                                if (c == '\n') {
                                    out.write((name + ":").getBytes(StandardCharsets.UTF_8));
                                    line.writeTo(out);
                                    out.write('\n');
                                    out.flush();
                                    line.reset();
                                } else {
                                    line.write(c);
                                }
                            }
                        } catch (IOException closed) {
                            // the test ended or killed it
                        }
                    });
                    echo.setDaemon(true);
                    echo.start();
                } catch (IOException closed) {
                    return;
                }
            }
        });
        t.setDaemon(true);
        t.start();
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    private RegionFront front(List<InetSocketAddress> instances) throws IOException {
        int port;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        RegionFront front = RegionFront.open("test", new InetSocketAddress(InetAddress.getLoopbackAddress(), port), instances);
        closing.add(0, front);
        return front;
    }

    /** One connection through the front: the line it answers, or null when the front closed it. */
    private static String ask(RegionFront front, String line) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(front.address());
            s.setSoTimeout(5_000);
            s.getOutputStream().write((line + "\n").getBytes(StandardCharsets.UTF_8));
            java.io.ByteArrayOutputStream answer = new java.io.ByteArrayOutputStream();
            InputStream in = s.getInputStream();
            int c;
            while ((c = in.read()) >= 0 && c != '\n') {
                answer.write(c);
            }
            return c < 0 && answer.size() == 0 ? null : answer.toString(StandardCharsets.UTF_8);
        }
    }

    @Test
    void newConnectionsTakeTurnsAmongTheReadyInstancesAndBytesPassUntouched() throws IOException {
        InetSocketAddress a = instance("a");
        InetSocketAddress b = instance("b");
        RegionFront front = front(List.of(a, b));
        front.ready(a, true);
        front.ready(b, true);

        Set<String> answers = new HashSet<>();
        for (int i = 0; i < 4; i++) {
            answers.add(ask(front, "hello é " + i).replaceAll(" \\d$", ""));
        }

        assertThat(answers).containsExactlyInAnyOrder("a:hello é", "b:hello é");
    }

    @Test
    void anInstanceNotReadyGetsNoConnectionAndOneThatRefusesIsSkipped() throws Exception {
        InetSocketAddress a = instance("a");
        InetSocketAddress b = instance("b");
        RegionFront front = front(List.of(a, b));
        front.ready(a, false);
        front.ready(b, true);
        for (int i = 0; i < 3; i++) {
            assertThat(ask(front, "x")).isEqualTo("b:x");
        }

        // a killed instance the health check has not caught yet: its port refuses, the front goes on to the next
        servers.get(b).close();
        front.ready(a, true);
        front.ready(b, true);
        for (int i = 0; i < 3; i++) {
            assertThat(ask(front, "y")).isEqualTo("a:y");
        }
    }

    @Test
    void withNoInstanceReadyAConnectionIsClosed() throws IOException {
        InetSocketAddress a = instance("a");
        RegionFront front = front(List.of(a));

        assertThat(ask(front, "anyone?")).isNull();
    }
}
