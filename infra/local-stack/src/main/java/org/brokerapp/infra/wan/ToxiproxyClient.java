package org.brokerapp.infra.wan;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.brokerapp.infra.host.StackException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The few calls of toxiproxy's HTTP API the stack needs. */
final class ToxiproxyClient {

    /** A proxy as toxiproxy reports it. */
    record Proxy(String name, String listen, String upstream, boolean enabled) {
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * Removing a latency toxic waits up to 5 s for each connection whose client reset it while data sat in
     * the toxic ("could not write to output in 5 seconds": toxiproxy issues 412 and 558); a client that gave
     * up on a slowed call and closed its connection leaves one. So an answer may take just over 5 s.
     */
    private static final Duration API_TIMEOUT = Duration.ofSeconds(15);

    private final URI base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    ToxiproxyClient(String host, int port) {
        this.base = URI.create("http://" + host + ":" + port);
    }

    boolean isUp() {
        try {
            return send("GET", "/version", null).statusCode() == 200;
        } catch (StackException e) {
            return false;
        }
    }

    void createProxy(String name, String listen, String upstream) {
        expect(201, send("POST", "/proxies", Map.of("name", name, "listen", listen, "upstream", upstream, "enabled", true)), "create proxy " + name);
    }

    /** Which bytes a toxic delays: what clients send (toxiproxy's "upstream") or what servers answer ("downstream"). */
    enum Direction {
        REQUESTS("upstream"), RESPONSES("downstream");

        private final String stream;

        Direction(String stream) {
            this.stream = stream;
        }
    }

    void addLatency(String proxy, Direction direction, Duration latency) {
        expect(200, send("POST", "/proxies/" + proxy + "/toxics", Map.of(
                "name", "wan-latency-" + direction.stream, "type", "latency", "stream", direction.stream, "toxicity", 1.0,
                "attributes", Map.of("latency", latency.toMillis(), "jitter", 0))), "add latency to " + proxy);
    }

    /** One extra latency toxic of this name per proxy and direction, replaced on each call; zero removes it. */
    void setExtraLatency(String proxy, String toxic, Direction direction, Duration extra) {
        send("DELETE", "/proxies/" + proxy + "/toxics/" + toxic, null);
        if (!extra.isZero()) {
            expect(200, send("POST", "/proxies/" + proxy + "/toxics", Map.of(
                    "name", toxic, "type", "latency", "stream", direction.stream, "toxicity", 1.0,
                    "attributes", Map.of("latency", extra.toMillis(), "jitter", 0))), "add " + toxic + " to " + proxy);
        }
    }

    void setEnabled(String proxy, boolean enabled) {
        expect(200, send("POST", "/proxies/" + proxy, Map.of("enabled", enabled)), (enabled ? "enable " : "disable ") + proxy);
    }

    List<Proxy> proxies() {
        HttpResponse<String> response = send("GET", "/proxies", null);
        expect(200, response, "list proxies");
        List<Proxy> proxies = new ArrayList<>();
        for (JsonNode p : JSON.readTree(response.body())) {
            proxies.add(new Proxy(p.get("name").asString(), p.get("listen").asString(), p.get("upstream").asString(), p.get("enabled").asBoolean()));
        }
        return proxies;
    }

    private HttpResponse<String> send(String method, String path, Object body) {
        HttpRequest.BodyPublisher publisher = body == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body));
        HttpRequest request = HttpRequest.newBuilder(base.resolve(path))
                .timeout(API_TIMEOUT)
                .header("Content-Type", "application/json")
                .method(method, publisher)
                .build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new StackException("WAN emulator (toxiproxy) at " + base + " does not answer: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StackException("interrupted while talking to toxiproxy");
        }
    }

    private static void expect(int status, HttpResponse<String> response, String what) {
        if (response.statusCode() != status) {
            throw new StackException("toxiproxy refused to " + what + ": HTTP " + response.statusCode() + " " + response.body().strip());
        }
    }
}
