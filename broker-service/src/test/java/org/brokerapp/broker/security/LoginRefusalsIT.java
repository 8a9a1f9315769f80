package org.brokerapp.broker.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.brokerapp.broker.support.Brokers;
import org.brokerapp.broker.support.BrokersTest;
import org.brokerapp.broker.support.TestSession;
import org.junit.jupiter.api.Test;

/**
 * Issue #55's login findings against a real broker, each stranger on a loopback address of its own
 * (the limits are per source address): a stranger failing logins in a customer's name locked the
 * customer out of {@code /api/token}; any HTTP Basic login, on any path, cost a password hash.
 */
@BrokersTest
class LoginRefusalsIT {

    private static final String REGION = "us-east-1";
    /** A customer whose password no other test checks on this broker, so its check is not remembered. */
    private static final String CUSTOMER = "load-10";

    private final Brokers brokers;
    private final URI broker;

    LoginRefusalsIT(Brokers brokers) {
        this.brokers = brokers;
        this.broker = URI.create(brokers.client(REGION, null, null).base());
    }

    @Test
    void aStrangerFailingLoginsInACustomersNameSlowsOnlyTheStranger() throws Exception {
        List<Integer> stranger = new ArrayList<>();
        ExecutorService clients = Executors.newFixedThreadPool(40);
        try {
            List<Future<Integer>> sent = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                sent.add(clients.submit(() -> post("127.0.0.2", "/api/token", basic(CUSTOMER, "guess-" + UUID.randomUUID()))));
            }
            for (Future<Integer> each : sent) {
                stranger.add(each.get());
            }
        } finally {
            clients.shutdownNow();
        }

        int customer = post("127.0.0.1", "/api/token", basic(CUSTOMER, CUSTOMER + "-pw"));

        assertThat(customer).as("the customer's own login, right after the stranger's 40 in their name").isEqualTo(200);
        assertThat(stranger).as("wrong passwords: refused, and past the source's budget refused unchecked").containsOnly(401, 429).contains(429);
    }

    /** Was (#55): any HTTP Basic login, on any path, cost a password hash (about 65 ms of CPU). */
    @Test
    void unknownLoginsCostNoPasswordHash() throws Exception {
        String source = "127.0.0.3";
        double hashed = passwordChecks();
        List<Integer> unknown = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            unknown.add(post(source, i % 2 == 0 ? "/api/token" : "/actuator/health", basic("nobody-" + UUID.randomUUID(), "x")));
        }
        double afterUnknown = passwordChecks();
        // more than the source's budget of password checks a second went by: had they been checked, this one would wait its turn
        int known = post(source, "/api/token", basic(CUSTOMER, "wrong"));

        assertThat(unknown).containsOnly(401);
        assertThat(afterUnknown).as("password hashes checked for 60 unknown logins").isEqualTo(hashed);
        assertThat(known).as("a real customer's wrong password from the same source is still checked").isEqualTo(401);
        assertThat(passwordChecks()).as("and costs one hash").isEqualTo(hashed + 1);
    }

    private double passwordChecks() {
        return brokers.metric(REGION, java.util.regex.Pattern.compile("(?m)^broker_password_checks_total(?:\\{[^}]*})? (\\S+)"));
    }

    @Test
    void httpBasicIsTheOperatorsOnlyCustomersUseTokens() {
        TestSession alice = brokers.client(REGION, "alice", "alice-pw");

        assertThat(alice.send("GET", "/api/holdings", null, null, basic("alice", "alice-pw")).status()).as("a customer's password on the API").isEqualTo(401);
        assertThat(alice.get("/api/holdings").status()).as("the customer's bearer token").isEqualTo(200);
        assertThat(brokers.operator(REGION).get("/actuator/prometheus").status()).as("the operator's HTTP Basic").isEqualTo(200);
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** The status of a request sent from {@code source} (a loopback address): the JDK's client cannot choose its source address. */
    private int post(String source, String path, String authorization) throws IOException {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(source, 0));
            socket.connect(new InetSocketAddress(broker.getHost(), broker.getPort()), 5_000);
            socket.setSoTimeout(30_000);
            String method = path.startsWith("/api/") ? "POST" : "GET";
            String request = method + " " + path + " HTTP/1.1\r\nHost: " + broker.getHost() + ":" + broker.getPort() + "\r\nAuthorization: "
                    + authorization + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            String status = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII)).readLine();
            return Integer.parseInt(status.split(" ")[1]);
        }
    }
}
