package org.brokerapp.broker.support;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.awaitility.core.ConditionTimeoutException;
import org.brokerapp.client.BearerTokens;
import org.brokerapp.client.BrokerSession;
import org.brokerapp.infra.host.Await;
import org.brokerapp.infra.host.LeanJvm;
import org.brokerapp.infra.stack.LocalStack;
import org.brokerapp.infra.tls.StackTls;

/**
 * A regional broker in a JVM of its own, so a test can kill it with SIGKILL (no shutdown hook, no
 * graceful anything) and start it again. It runs the test classpath's broker against the stack.
 */
public final class BrokerProcess implements AutoCloseable {

    private final Process process;
    private final int port;
    private final Path log;

    private final String host;
    /** {@code https://} on a TLS stack, with a client trusting its CA. */
    private final String scheme;
    private final HttpClient http;
    /** The customers' bearer tokens, asked for once per customer and password. */
    private final BearerTokens tokens;

    private BrokerProcess(Process process, String host, int port, Path log, LocalStack stack) {
        this.process = process;
        this.host = host;
        this.scheme = stack.tls().isPresent() ? "https://" : "http://";
        this.http = BrokerSession.trusting(stack.tls().map(StackTls::clientContext));
        this.tokens = new BearerTokens(http);
        this.port = port;
        this.log = log;
    }

    public static BrokerProcess start(LocalStack stack, String region, Path log) {
        int port = freePort();
        Map<String, Object> properties = Brokers.properties(stack, region);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m"));
        command.addAll(LeanJvm.SMALL_MACHINE);
        command.addAll(List.of("-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                "org.brokerapp.broker.BrokerApplication"));
        // a second instance of the region: same address, own port (routed orders go to the first)
        // the Kafka password from the environment, as a deployment gives it, not on a command line anyone can read
        Object kafkaPassword = properties.remove("broker.kafka.password");
        properties.forEach((key, value) -> command.add("--" + key + "=" + (key.equals("server.port") ? port : value)));
        try {
            Files.createDirectories(log.getParent());
            // its temporary files (Tomcat's work directories) beside its log, not in /tmp: a broker a test kills leaves them behind
            Path tmp = Files.createDirectories(log.resolveSibling(log.getFileName().toString().replace(".log", ".tmp")));
            command.add(1, "-Djava.io.tmpdir=" + tmp.toAbsolutePath());
            ProcessBuilder launcher = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            launcher.environment().put("BROKER_KAFKA_PASSWORD", String.valueOf(kafkaPassword));
            Process process = launcher.start();
            // a failing test must not leave a broker behind, whatever path it takes out
            Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly, "broker-process-cleanup"));
            BrokerProcess broker = new BrokerProcess(process, Brokers.host(stack.brokerAddress(region)), port, log, stack);
            broker.awaitReady(Duration.ofSeconds(90));
            return broker;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private void awaitReady(Duration timeout) {
        TestSession anonymous = client(null, null);
        try {
            Await.await("broker process ready", timeout).pollInterval(Duration.ofMillis(250)).until(() -> {
                if (!process.isAlive()) {
                    throw new IllegalStateException("broker process exited with " + process.exitValue() + "; see " + log);
                }
                try {
                    return anonymous.get("/actuator/health/readiness").text("status").equals("UP");
                } catch (IllegalStateException notListeningYet) {
                    return false;
                }
            });
        } catch (ConditionTimeoutException e) {
            kill();
            throw new IllegalStateException("broker process not ready within " + timeout + "; see " + log, e);
        }
    }

    public TestSession client(String customer, String password) {
        return new TestSession(scheme + host + ":" + port, http, tokens, customer, password);
    }

    /** Writes the process's thread dump next to its log: what a stuck broker was waiting for. */
    public void threadDump() {
        try {
            new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), Long.toString(process.pid()), "Thread.print")
                    .redirectErrorStream(true).redirectOutput(Path.of(log + ".threads").toFile()).start().waitFor();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** SIGKILL: the process gets no chance to finish anything. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                    kill();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                kill();
            }
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
