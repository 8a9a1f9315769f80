package org.brokerapp.k8s;

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

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code kubectl apply --dry-run=server} of every overlay against a real kube-apiserver (built from
 * k8s.io/kubernetes by k8s/bin/install-tools) on a real etcd (Debian's etcd-server), both started
 * here on free loopback ports, with the operators' CRDs from k8s/crds installed first. The server
 * runs every validation and admission step short of storing, including the CRDs' OpenAPI schemas.
 * No kubelet, scheduler or controller: nothing is run, only accepted or refused.
 */
class ServerDryRunIT {

    static final Path DIR = K8sTools.TARGET.resolve("apiserver");
    static Process etcd;
    static Process apiserver;
    static Path kubeconfig;

    @BeforeAll
    static void startApiServer() throws Exception {
        Path etcdBinary = K8sTools.tool("etcd");
        Path apiserverBinary = K8sTools.tool("kube-apiserver");
        K8sTools.tool("kubectl");
        deleteRecursively(DIR);
        Files.createDirectories(DIR.resolve("certs"));
        int etcdClient = freePort();
        int etcdPeer = freePort();
        int securePort = freePort();

        etcd = new ProcessBuilder(etcdBinary.toString(), "--name", "dry-run", "--data-dir", DIR.resolve("etcd").toString(),
                "--listen-client-urls", "http://127.0.0.1:" + etcdClient, "--advertise-client-urls", "http://127.0.0.1:" + etcdClient,
                "--listen-peer-urls", "http://127.0.0.1:" + etcdPeer, "--initial-advertise-peer-urls", "http://127.0.0.1:" + etcdPeer,
                "--initial-cluster", "dry-run=http://127.0.0.1:" + etcdPeer,
                // the K8ssandraCluster CRD is ~1.3 MB as JSON, close to etcd's 1.5 MiB default request limit
                "--max-request-bytes", Integer.toString(8 * 1024 * 1024))
                .redirectErrorStream(true).redirectOutput(DIR.resolve("etcd.log").toFile()).start();

        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair serviceAccountKey = generator.generateKeyPair();
        Path privateKey = DIR.resolve("certs/sa.key");
        Path publicKey = DIR.resolve("certs/sa.pub");
        Files.writeString(privateKey, pem("PRIVATE KEY", serviceAccountKey.getPrivate().getEncoded()));
        Files.writeString(publicKey, pem("PUBLIC KEY", serviceAccountKey.getPublic().getEncoded()));
        String token = UUID.randomUUID().toString();
        Path tokens = DIR.resolve("certs/tokens.csv");
        Files.writeString(tokens, token + ",admin,admin,\"system:masters\"\n");

        apiserver = new ProcessBuilder(apiserverBinary.toString(),
                "--etcd-servers", "http://127.0.0.1:" + etcdClient,
                "--bind-address", "127.0.0.1", "--advertise-address", "127.0.0.1", "--secure-port", Integer.toString(securePort),
                "--cert-dir", DIR.resolve("certs").toString(),
                "--token-auth-file", tokens.toString(), "--authorization-mode", "RBAC",
                "--service-account-issuer", "https://kubernetes.default.svc.cluster.local",
                "--service-account-key-file", publicKey.toString(), "--service-account-signing-key-file", privateKey.toString(),
                "--service-cluster-ip-range", "10.96.0.0/16")
                .redirectErrorStream(true).redirectOutput(DIR.resolve("kube-apiserver.log").toFile()).start();

        kubeconfig = DIR.resolve("kubeconfig");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters:
                  - name: dry-run
                    cluster: {server: "https://127.0.0.1:%d", insecure-skip-tls-verify: true}
                users:
                  - name: admin
                    user: {token: "%s"}
                contexts:
                  - name: dry-run
                    context: {cluster: dry-run, user: admin}
                current-context: dry-run
                """.formatted(securePort, token));

        long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
        while (true) {
            if (!apiserver.isAlive() || !etcd.isAlive()) {
                fail("kube-apiserver or etcd exited at start: see " + DIR.resolve("kube-apiserver.log") + " and etcd.log");
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

        // the operators' CRDs, as their operators would install them (server-side: the K8ssandraCluster
        // CRD is too large for client-side apply's last-applied annotation)
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
        // a server-side dry run of a Namespace creates nothing, so the namespace the objects go to must exist
        K8sTools.Result namespace = kubectl(Duration.ofSeconds(30), "create", "namespace", "brokerapp");
        assertThat(namespace.status()).as(namespace.output()).isZero();
    }

    @AfterAll
    static void stop() throws InterruptedException {
        for (Process process : new Process[] {apiserver, etcd}) {
            if (process != null) {
                process.destroy();
                if (!process.waitFor(20, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        }
    }

    static K8sTools.Result kubectl(Duration timeout, String... args) {
        List<String> command = new ArrayList<>(List.of(K8sTools.tool("kubectl").toString(), "--kubeconfig", kubeconfig.toString()));
        command.addAll(List.of(args));
        return K8sTools.run(timeout, command);
    }

    @Test
    void everyOverlayIsAcceptedByTheApiServer() {
        for (Path overlay : K8sTools.overlays()) {
            Path manifests = K8sTools.build(overlay);
            int objects = K8sTools.objects(manifests).size();
            K8sTools.Result result = kubectl(Duration.ofMinutes(2), "apply", "--dry-run=server", "-f", manifests.toString());
            assertThat(result.status()).as(overlay.getFileName() + ": " + result.output()).isZero();
            long accepted = result.output().lines().filter(l -> l.endsWith("(server dry run)")).count();
            assertThat(accepted).as(result.output()).isEqualTo(objects);
        }
    }

    @Test
    void theServerRefusesWhatTheSchemasForbid() throws IOException {
        Path broken = K8sTools.TARGET.resolve("broken-for-server.yaml");
        Files.writeString(broken, """
                apiVersion: k8ssandra.io/v1alpha1
                kind: K8ssandraCluster
                metadata: {name: broken, namespace: brokerapp}
                spec:
                  cassandra:
                    serverVersion: "five"
                    datacenters:
                      - metadata: {name: dc1}
                        size: two
                ---
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: broken, namespace: brokerapp}
                spec:
                  replicas: -1
                  selector: {matchLabels: {app: broken}}
                  template:
                    metadata: {labels: {app: broken}}
                    spec:
                      containers: [{name: c, image: x}]
                """);
        K8sTools.Result result = kubectl(Duration.ofMinutes(1), "apply", "--dry-run=server", "-f", broken.toString());
        assertThat(result.status()).isNotZero();
        assertThat(result.output()).contains("K8ssandraCluster.k8ssandra.io \"broken\" is invalid")
                .contains("spec.cassandra.datacenters[0].size").contains("Deployment.apps \"broken\" is invalid")
                .contains("spec.replicas");
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

    static void deleteRecursively(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (var files = Files.walk(dir)) {
                for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
