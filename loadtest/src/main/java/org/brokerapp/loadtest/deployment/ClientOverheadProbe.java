package org.brokerapp.loadtest.deployment;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.brokerapp.client.BearerTokens;
import org.brokerapp.client.BrokerClient;

/**
 * What an HTTP client itself adds to a request's latency: the same {@code GET} to one broker, as
 * one customer, through the JDK's asynchronous client (as the harness sent orders before), the
 * harness's order client ({@link BrokerClient}) and a bare socket, the three in a fresh random order
 * each round so that the machine's noise falls on all alike. Run it beside a load test:
 * <pre>
 * java -Dlogback.configurationFile=local-stack-logback.xml -cp "loadtest/target/classes:$(cat loadtest/target/runtime-classpath.txt)" \
 *     org.brokerapp.loadtest.deployment.ClientOverheadProbe http://127.10.1.3:8080 alice alice-pw 500
 * </pre>
 * (the logging configuration matters: at logback's default level, DEBUG, Apache HttpClient logs
 * every request and costs several times more than its work)
 */
public final class ClientOverheadProbe {

    private static final String PATH = "/api/holdings";
    private static final int WARM_UP = 50;

    private ClientOverheadProbe() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: ClientOverheadProbe BROKER_URL CUSTOMER PASSWORD ROUNDS");
            System.exit(2);
        }
        String base = args[0];
        int rounds = Integer.parseInt(args[3]);
        HttpClient jdk = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
        String authorization = new BearerTokens(jdk).authorization(base, args[1], args[2]).join();
        URI uri = URI.create(base + PATH);
        List<Client> clients = List.of(new JdkAsync(jdk, uri, authorization), new Blocking(uri, authorization), new BareSocket(uri, authorization));
        long[][] nanos = new long[clients.size()][rounds];
        List<Integer> order = new ArrayList<>(List.of(0, 1, 2));
        for (int round = -WARM_UP; round < rounds; round++) {
            Collections.shuffle(order);
            for (int i : order) {
                long start = System.nanoTime();
                clients.get(i).get();
                if (round >= 0) {
                    nanos[i][round] = System.nanoTime() - start;
                }
                Thread.sleep(5);
            }
        }
        System.out.printf("GET %s at %s, %d rounds, the three clients interleaved%n", PATH, base, rounds);
        for (int i = 0; i < clients.size(); i++) {
            long[] t = nanos[i];
            Arrays.sort(t);
            System.out.printf(Locale.ROOT, "%-40s p50 %6.2f ms   p90 %6.2f ms   p99 %6.2f ms%n", clients.get(i).name(),
                    t[rounds / 2] / 1e6, t[rounds * 9 / 10] / 1e6, t[rounds * 99 / 100] / 1e6);
        }
    }

    private interface Client {
        String name();

        void get() throws IOException, InterruptedException;
    }

    private record JdkAsync(HttpClient http, URI uri, String authorization) implements Client {
        public String name() {
            return "JDK HttpClient, sendAsync";
        }

        public void get() {
            HttpResponse<String> r = http.sendAsync(HttpRequest.newBuilder(uri).timeout(BrokerClient.REQUEST_TIMEOUT)
                    .header("Authorization", authorization).GET().build(), HttpResponse.BodyHandlers.ofString()).join();
            expectOk(r.statusCode());
        }
    }

    private static final class Blocking implements Client {
        private final CloseableHttpClient http = BrokerClient.ordersClient(Optional.empty());
        private final URI uri;
        private final String authorization;

        Blocking(URI uri, String authorization) {
            this.uri = uri;
            this.authorization = authorization;
        }

        public String name() {
            return "the harness's order client (blocking)";
        }

        public void get() throws IOException {
            HttpGet get = new HttpGet(uri);
            get.setHeader("Authorization", authorization);
            expectOk(http.execute(get, r -> {
                EntityUtils.consume(r.getEntity());
                return r.getCode();
            }));
        }
    }

    /** HTTP/1.1 by hand on one kept-open socket: the floor for any client. */
    private static final class BareSocket implements Client {
        private final URI uri;
        private final byte[] request;
        private Socket socket;
        private InputStream in;
        private OutputStream out;

        BareSocket(URI uri, String authorization) {
            this.uri = uri;
            this.request = ("GET " + uri.getPath() + " HTTP/1.1\r\nHost: " + uri.getHost() + ":" + uri.getPort() + "\r\nAuthorization: "
                    + authorization + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        }

        public String name() {
            return "bare socket";
        }

        public void get() throws IOException {
            if (socket == null) {
                connect();
            }
            try {
                exchange();
            } catch (EOFException closedByServer) {
                // Tomcat closes a connection after its 100th request (maxKeepAliveRequests); the others reconnect too
                connect();
                exchange();
            }
        }

        private void connect() throws IOException {
            if (socket != null) {
                socket.close();
            }
            socket = new Socket(uri.getHost(), uri.getPort());
            socket.setTcpNoDelay(true);
            in = new BufferedInputStream(socket.getInputStream());
            out = socket.getOutputStream();
        }

        private void exchange() throws IOException {
            out.write(request);
            out.flush();
            String status = line();
            int length = -1;
            boolean chunked = false;
            for (String header = line(); !header.isEmpty(); header = line()) {
                String h = header.toLowerCase(Locale.ROOT);
                if (h.startsWith("content-length:")) {
                    length = Integer.parseInt(h.substring("content-length:".length()).trim());
                } else if (h.startsWith("transfer-encoding:") && h.contains("chunked")) {
                    chunked = true;
                }
            }
            if (chunked) {
                for (int size = Integer.parseInt(line().trim(), 16); size > 0; size = Integer.parseInt(line().trim(), 16)) {
                    in.readNBytes(size);
                    line();
                }
                line();
            } else {
                in.readNBytes(Math.max(0, length));
            }
            expectOk(Integer.parseInt(status.split(" ")[1]));
        }

        private String line() throws IOException {
            StringBuilder b = new StringBuilder();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new EOFException();
                }
                if (c != '\r') {
                    b.append((char) c);
                }
            }
            return b.toString();
        }
    }

    private static void expectOk(int status) {
        if (status != 200) {
            throw new IllegalStateException("HTTP " + status);
        }
    }
}
