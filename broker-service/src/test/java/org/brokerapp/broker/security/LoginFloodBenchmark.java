package org.brokerapp.broker.security;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Issue #55's refusal benchmark against a running broker: a customer's {@code GET /api/holdings}
 * timed alone, then again while 32 clients send random HTTP Basic logins (half to {@code /api/token},
 * half to {@code /actuator/health}), side by side in one run. Prints the refusals per second and the
 * holdings p50 of both phases. Not a test (JUnit does not run it); command in docs/benchmarks/log/2026-12-07-login-refusals.md.
 *
 * <p>Arguments: the broker's base URL, a customer and their password.
 */
public final class LoginFloodBenchmark {

    private static final int CLIENTS = 32;
    private static final Duration PHASE = Duration.ofSeconds(30);

    private LoginFloodBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: LoginFloodBenchmark <broker-url> <customer> <password>");
            System.exit(2);
        }
        String base = args[0];
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        String token = token(http, base, args[1], args[2]);
        probe(http, base, token, Duration.ofSeconds(10)); // warm-up
        List<Long> quiet = probe(http, base, token, PHASE);

        AtomicBoolean flooding = new AtomicBoolean(true);
        AtomicLong refused = new AtomicLong();
        AtomicLong other = new AtomicLong();
        ExecutorService flood = Executors.newFixedThreadPool(CLIENTS);
        for (int c = 0; c < CLIENTS; c++) {
            String path = c % 2 == 0 ? "/api/token" : "/actuator/health";
            flood.execute(() -> {
                HttpClient own = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
                while (flooding.get()) {
                    String login = Base64.getEncoder().encodeToString((UUID.randomUUID() + ":" + UUID.randomUUID()).getBytes(StandardCharsets.UTF_8));
                    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10))
                            .header("Authorization", "Basic " + login);
                    request = path.equals("/api/token") ? request.POST(HttpRequest.BodyPublishers.noBody()) : request.GET();
                    try {
                        int status = own.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
                        (status == 401 || status == 429 ? refused : other).incrementAndGet();
                    } catch (Exception e) {
                        other.incrementAndGet();
                    }
                }
            });
        }
        Thread.sleep(5_000); // the flood up to speed
        long refusedBefore = refused.get();
        long started = System.nanoTime();
        List<Long> loaded = probe(http, base, token, PHASE);
        double seconds = (System.nanoTime() - started) / 1e9;
        long refusals = refused.get() - refusedBefore;
        flooding.set(false);
        flood.shutdown();
        flood.awaitTermination(30, TimeUnit.SECONDS);

        double quietP50 = p50(quiet) / 1e6;
        double loadedP50 = p50(loaded) / 1e6;
        System.out.printf("refusals          %.0f a second (%d in %.1f s; %d other answers)%n", refusals / seconds, refusals, seconds, other.get());
        System.out.printf("holdings p50      quiet %.2f ms, under the flood %.2f ms: %.2fx%n", quietP50, loadedP50, loadedP50 / quietP50);
    }

    /** Holdings, one request after another, for {@code length}: each request's time in nanoseconds. */
    private static List<Long> probe(HttpClient http, String base, String token, Duration length) throws Exception {
        List<Long> times = new ArrayList<>();
        long end = System.nanoTime() + length.toNanos();
        HttpRequest holdings = HttpRequest.newBuilder(URI.create(base + "/api/holdings")).header("Authorization", "Bearer " + token).build();
        while (System.nanoTime() < end) {
            long sent = System.nanoTime();
            HttpResponse<String> answer = http.send(holdings, HttpResponse.BodyHandlers.ofString());
            if (answer.statusCode() != 200) {
                throw new IllegalStateException("holdings answered " + answer.statusCode() + ": " + answer.body());
            }
            times.add(System.nanoTime() - sent);
            Thread.sleep(20);
        }
        return times;
    }

    private static String token(HttpClient http, String base, String customer, String password) throws Exception {
        String basic = Base64.getEncoder().encodeToString((customer + ":" + password).getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create(base + "/api/token")).header("Authorization", "Basic " + basic)
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 200) {
            throw new IllegalStateException("no token for " + customer + ": " + answer.statusCode() + " " + answer.body());
        }
        String body = answer.body();
        int start = body.indexOf("\"access_token\":\"") + "\"access_token\":\"".length();
        return body.substring(start, body.indexOf('"', start));
    }

    private static long p50(List<Long> times) {
        List<Long> sorted = new ArrayList<>(times);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }
}
