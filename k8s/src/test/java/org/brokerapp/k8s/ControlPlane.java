package org.brokerapp.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A real Kubernetes control plane on free loopback ports: Debian's etcd and kube-apiserver (built by
 * k8s/bin/install-tools), with the operators' CRDs from k8s/crds installed and Established. With
 * {@link #withControllers()} also kube-controller-manager and kube-scheduler, and kwok, which plays
 * the kubelet of every node annotated {@code kwok.x-k8s.io/node: fake} (it marks their pods Running
 * and Ready and gives them addresses, so Services get endpoints). Stopped, every process, by
 * {@link #close()}.
 */
final class ControlPlane implements AutoCloseable {

    static final String FAKE_NODE_ANNOTATION = "kwok.x-k8s.io/node";
    /** As k8s/bin/install-tools pins it. */
    static final String KWOK_VERSION = "v0.8.0";

    final Path dir;
    final Path kubeconfig;
    private final List<Process> processes = new ArrayList<>();
    private final Path privateKey;
    private final int securePort;

    private ControlPlane(Path dir) throws Exception {
        this.dir = dir;
        K8sTools.deleteRecursively(dir);
        Files.createDirectories(dir.resolve("certs"));
        int etcdClient = freePort();
        int etcdPeer = freePort();
        securePort = freePort();
        start("etcd", K8sTools.tool("etcd").toString(), "--name", "control-plane", "--data-dir", dir.resolve("etcd").toString(),
                "--listen-client-urls", "http://127.0.0.1:" + etcdClient, "--advertise-client-urls", "http://127.0.0.1:" + etcdClient,
                "--listen-peer-urls", "http://127.0.0.1:" + etcdPeer, "--initial-advertise-peer-urls", "http://127.0.0.1:" + etcdPeer,
                "--initial-cluster", "control-plane=http://127.0.0.1:" + etcdPeer,
                // the largest CRD as JSON is close to etcd's 1.5 MiB default request limit
                "--max-request-bytes", Integer.toString(8 * 1024 * 1024));

        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair serviceAccountKey = generator.generateKeyPair();
        privateKey = dir.resolve("certs/sa.key");
        Path publicKey = dir.resolve("certs/sa.pub");
        Files.writeString(privateKey, pem("PRIVATE KEY", serviceAccountKey.getPrivate().getEncoded()));
        Files.writeString(publicKey, pem("PUBLIC KEY", serviceAccountKey.getPublic().getEncoded()));
        String token = UUID.randomUUID().toString();
        Path tokens = dir.resolve("certs/tokens.csv");
        Files.writeString(tokens, token + ",admin,admin,\"system:masters\"\n");

        start("kube-apiserver", K8sTools.tool("kube-apiserver").toString(),
                "--etcd-servers", "http://127.0.0.1:" + etcdClient,
                "--bind-address", "127.0.0.1", "--advertise-address", "127.0.0.1", "--secure-port", Integer.toString(securePort),
                "--cert-dir", dir.resolve("certs").toString(),
                "--token-auth-file", tokens.toString(), "--authorization-mode", "RBAC",
                "--service-account-issuer", "https://kubernetes.default.svc.cluster.local",
                "--service-account-key-file", publicKey.toString(), "--service-account-signing-key-file", privateKey.toString(),
                "--service-cluster-ip-range", "10.96.0.0/16");

        kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters:
                  - name: local
                    cluster: {server: "https://127.0.0.1:%d", insecure-skip-tls-verify: true}
                users:
                  - name: admin
                    user: {token: "%s"}
                contexts:
                  - name: local
                    context: {cluster: local, user: admin}
                current-context: local
                """.formatted(securePort, token));

        long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
        while (true) {
            if (processes.stream().anyMatch(p -> !p.isAlive())) {
                fail("kube-apiserver or etcd exited at start: see " + dir.resolve("kube-apiserver.log") + " and etcd.log");
            }
            K8sTools.Result ready = kubectl(Duration.ofSeconds(20), "--request-timeout=10s", "get", "--raw", "/readyz");
            if (ready.status() == 0 && ready.output().trim().equals("ok")) {
                break;
            }
            if (System.nanoTime() > deadline) {
                fail("kube-apiserver not ready within 180 s: " + ready.output());
            }
            Thread.sleep(1000);
        }

        // the operators' CRDs, as their operators would install them (server-side: a large CRD does not
        // fit client-side apply's last-applied annotation)
        List<String> apply = new ArrayList<>(List.of("apply", "--server-side"));
        for (Path crd : CrdSchemas.crdFiles()) {
            apply.add("-f");
            apply.add(crd.toString());
        }
        K8sTools.Result crds = kubectl(Duration.ofMinutes(3), apply.toArray(String[]::new));
        assertThat(crds.status()).as(crds.output()).isZero();
        K8sTools.Result established = kubectl(Duration.ofMinutes(3), "wait", "--for", "condition=Established", "crd", "--all",
                "--timeout", "150s");
        assertThat(established.status()).as(established.output()).isZero();
    }

    /** etcd and kube-apiserver, with the CRDs: enough for a server-side dry run. */
    static ControlPlane apiServer(Path dir) throws Exception {
        return new ControlPlane(dir);
    }

    /** Adds the controller manager, the scheduler and kwok: objects applied become scheduled, running pods. */
    ControlPlane withControllers() throws IOException {
        start("kube-controller-manager", K8sTools.tool("kube-controller-manager").toString(), "--kubeconfig", kubeconfig.toString(),
                "--authentication-kubeconfig", kubeconfig.toString(), "--authorization-kubeconfig", kubeconfig.toString(),
                "--bind-address", "127.0.0.1", "--secure-port", Integer.toString(freePort()), "--leader-elect=false",
                "--service-account-private-key-file", privateKey.toString(), "--use-service-account-credentials=false",
                "--controllers", "*,-nodeipam,-cloud-node-lifecycle,-service-lb-controller,-node-route-controller");
        start("kube-scheduler", K8sTools.tool("kube-scheduler").toString(), "--kubeconfig", kubeconfig.toString(),
                "--authentication-kubeconfig", kubeconfig.toString(), "--authorization-kubeconfig", kubeconfig.toString(),
                "--bind-address", "127.0.0.1", "--secure-port", Integer.toString(freePort()), "--leader-elect=false");
        Path stages = K8sTools.SHARE.resolve("kwok-" + KWOK_VERSION + "-stages.yaml");
        if (!Files.isReadable(stages)) {
            fail("kwok's stages are missing (" + stages + "): run k8s/bin/install-tools");
        }
        start("kwok", K8sTools.tool("kwok").toString(), "--kubeconfig", kubeconfig.toString(), "--config", stages.toString(),
                "--node-lease-duration-seconds", "40",
                "--manage-all-nodes=false", "--manage-nodes-with-annotation-selector", FAKE_NODE_ANNOTATION + "=fake",
                "--cidr", "10.244.0.0/16", "--node-ip", "10.0.0.1", "--server-address", "127.0.0.1:" + freePort());
        return this;
    }

    K8sTools.Result kubectl(Duration timeout, String... args) {
        List<String> command = new ArrayList<>(List.of(K8sTools.tool("kubectl").toString(), "--kubeconfig", kubeconfig.toString()));
        command.addAll(List.of(args));
        return K8sTools.run(timeout, command);
    }

    /** Every process still running, for a test that checks none died. */
    void assertAlive() {
        for (int i = 0; i < processes.size(); i++) {
            assertThat(processes.get(i).isAlive()).as(processes.get(i).info().command().orElse("process " + i) + " (logs in " + dir + ")")
                    .isTrue();
        }
    }

    private void start(String name, String... command) throws IOException {
        processes.add(new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve(name + ".log").toFile()).start());
    }

    @Override
    public void close() throws InterruptedException {
        for (int i = processes.size() - 1; i >= 0; i--) { // the last started first
            Process process = processes.get(i);
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
