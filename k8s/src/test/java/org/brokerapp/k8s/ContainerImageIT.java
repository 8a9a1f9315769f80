package org.brokerapp.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The image tarballs that jib:buildTar wrote in the package phase of broker-service and ticker-feed:
 * what their configuration says (non-root user, entrypoint, JVM sized by the container's memory
 * limit, port), and that the feed's image runs: its layers unpacked into a root file system and its
 * entrypoint started there with --help, under a private mount and PID namespace with /proc, as user
 * 65532, with nothing from the building machine but the kernel.
 */
class ContainerImageIT {

    static final JsonMapper JSON = JsonMapper.builder().build();

    static Path image(String module) {
        Path tar = K8sTools.REPO.resolve(module).resolve("target/jib-image.tar");
        if (!Files.isRegularFile(tar)) {
            fail(tar + " is missing: it is built by 'jib:buildTar' in the package phase of " + module);
        }
        return tar;
    }

    static JsonNode config(Path imageTar) throws IOException {
        try (TarArchiveInputStream tar = new TarArchiveInputStream(Files.newInputStream(imageTar))) {
            for (TarArchiveEntry entry; (entry = tar.getNextEntry()) != null; ) {
                if (entry.getName().equals("config.json")) {
                    return JSON.readTree(tar.readAllBytes());
                }
            }
        }
        return fail("no config.json in " + imageTar);
    }

    @Test
    void brokerImageRunsAsNonRootWithTheJvmSizedByTheContainer() throws IOException {
        JsonNode config = config(image("broker-service")).path("config");
        assertThat(config.path("User").asString()).isEqualTo("65532:65532");
        assertThat(config.path("ExposedPorts").has("8080/tcp")).isTrue();
        List<String> entrypoint = strings(config.path("Entrypoint"));
        assertThat(entrypoint.get(0)).isEqualTo("java");
        assertThat(entrypoint).contains("-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError",
                "org.brokerapp.broker.BrokerApplication");
        assertThat(strings(config.path("Env"))).contains("JAVA_HOME=/opt/java");
    }

    @Test
    void feedImageRunsItsEntrypointInItsOwnRootFileSystem() throws IOException {
        Path imageTar = image("ticker-feed");
        JsonNode config = config(imageTar).path("config");
        assertThat(config.path("User").asString()).isEqualTo("65532:65532");
        List<String> entrypoint = strings(config.path("Entrypoint"));
        assertThat(entrypoint).contains("-XX:MaxRAMPercentage=75", "org.brokerapp.ticker.TickerFeedCli");

        Path rootfs = K8sTools.TARGET.resolve("ticker-feed-rootfs");
        K8sTools.deleteRecursively(rootfs);
        unpack(imageTar, rootfs);
        assertThat(Files.readString(rootfs.resolve("etc/passwd"))).contains("nonroot:x:65532:65532:");
        Files.createDirectories(rootfs.resolve("proc"));

        List<String> command = new ArrayList<>(List.of("unshare", "--mount", "--pid", "--fork", "--mount-proc=" + rootfs.resolve("proc")));
        boolean root = "root".equals(System.getProperty("user.name"));
        if (root) {
            command.addAll(List.of("chroot", "--userspec=65532:65532", rootfs.toString()));
        } else {
            // without root: a user namespace in which this user is root (unprivileged user namespaces)
            command.addAll(1, List.of("--user", "--map-root-user"));
            command.addAll(List.of("chroot", rootfs.toString()));
        }
        command.addAll(entrypoint);
        command.add("--help");
        K8sTools.Result result = K8sTools.run(Duration.ofMinutes(1), command,
                java.util.Map.of("PATH", "/opt/java/bin:/usr/bin:/bin:/usr/sbin:/sbin"));
        assertThat(result.status()).as(String.join(" ", command) + "\n" + result.output()).isZero();
        assertThat(result.output()).startsWith("usage: ticker-feed simulate");
    }

    /** Unpacks every layer of a docker-format image tarball, in order, into one directory. */
    static void unpack(Path imageTar, Path rootfs) throws IOException {
        Path layers = K8sTools.TARGET.resolve("ticker-feed-layers");
        K8sTools.deleteRecursively(layers);
        Files.createDirectories(layers);
        List<String> order = new ArrayList<>();
        try (TarArchiveInputStream tar = new TarArchiveInputStream(Files.newInputStream(imageTar))) {
            for (TarArchiveEntry entry; (entry = tar.getNextEntry()) != null; ) {
                Files.copy(tar, layers.resolve(entry.getName()));
            }
        }
        JSON.readTree(layers.resolve("manifest.json").toFile()).get(0).path("Layers").forEach(l -> order.add(l.asString()));
        Files.createDirectories(rootfs);
        for (String layer : order) {
            try (InputStream in = new GZIPInputStream(Files.newInputStream(layers.resolve(layer)));
                 TarArchiveInputStream tar = new TarArchiveInputStream(in)) {
                for (TarArchiveEntry entry; (entry = tar.getNextEntry()) != null; ) {
                    Path target = rootfs.resolve(entry.getName()).normalize();
                    if (!target.startsWith(rootfs)) {
                        fail("layer entry outside the root: " + entry.getName());
                    }
                    if (entry.isDirectory()) {
                        Files.createDirectories(target);
                    } else if (entry.isSymbolicLink()) {
                        Files.createDirectories(target.getParent());
                        Files.deleteIfExists(target);
                        Files.createSymbolicLink(target, Path.of(entry.getLinkName()));
                    } else {
                        Files.createDirectories(target.getParent());
                        Files.copy(tar, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                        target.toFile().setExecutable((entry.getMode() & 0111) != 0, false);
                    }
                }
            }
        }
    }

    static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asString()));
        return values;
    }
}
