package org.brokerapp.loadtest.deployment;

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

    private InetSocketAddress a;
    private InetSocketAddress b;
    private RegionFront front;

    @org.junit.jupiter.api.BeforeEach
    void twoInstancesBehindAFront() throws IOException {
        a = instance("a");
        b = instance("b");
        front = front(List.of(a, b));
    }

    @Test
    void newConnectionsTakeTurnsAmongTheReadyInstancesAndBytesPassUntouched() throws IOException {
        front.ready(a, true);
        front.ready(b, true);

        Set<String> answers = new HashSet<>();
        for (int i = 0; i < 4; i++) {
            answers.add(ask(front, "hello é " + i).replaceAll(" \\d$", ""));
        }

        assertThat(answers).containsExactlyInAnyOrder("a:hello é", "b:hello é");
    }

    @Test
    void anInstanceNotReadyGetsNoConnection() throws IOException {
        front.ready(a, false);
        front.ready(b, true);

        for (int i = 0; i < 3; i++) {
            assertThat(ask(front, "x")).isEqualTo("b:x");
        }
    }

    @Test
    void anInstanceThatRefusesIsSkipped() throws IOException {
        // a killed instance the health check has not caught yet: nothing listens on its port
        InetSocketAddress killed;
        try (ServerSocket gone = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            killed = (InetSocketAddress) gone.getLocalSocketAddress();
        }
        RegionFront withKilled = front(List.of(killed, a));
        withKilled.ready(killed, true);
        withKilled.ready(a, true);

        for (int i = 0; i < 3; i++) {
            assertThat(ask(withKilled, "y")).isEqualTo("a:y");
        }
    }

    @Test
    void withNoInstanceReadyAConnectionIsClosed() throws IOException {
        front.ready(a, false);

        assertThat(ask(front, "anyone?")).isNull();
    }
}
