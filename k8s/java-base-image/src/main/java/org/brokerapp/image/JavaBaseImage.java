package org.brokerapp.image;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * Builds the base image of the broker and feed images without a registry or a container engine:
 * <ol>
 *   <li>a Java runtime jlinked from the JDK running the build, at {@code /opt/java};</li>
 *   <li>the shared libraries that runtime needs, found with {@code ldd} and copied from the building
 *       machine (its Debian packages: glibc, libstdc++, libgcc, zlib), at the paths the loader looks;</li>
 *   <li>{@code /etc/passwd} and {@code /etc/group} with the non-root user {@code nonroot} (65532, as in
 *       distroless), {@code /tmp} (1777) and the user's home;</li>
 * </ol>
 * written as a one-layer image tarball in {@code docker save} format, which Jib reads as its base
 * ({@code <from><image>tar://...}). Headless: the AWT/X11 and sound libraries of {@code java.desktop}
 * (kept for {@code java.beans}, which Spring uses) are left out, so a GUI class would fail to load.
 * Every file gets the same timestamp, but the digest is not reproducible: jlink 17 writes a
 * {@code lib/modules} that differed by a few hundred bytes between two runs (measured). An image
 * already built by the same JDK and the same version of this class is kept (a stamp file says which), since
 * jlink takes 1-2 minutes on 2 busy cores.
 *
 * <p>Usage: {@code JavaBaseImage <output.tar> <work-dir>}
 */
public final class JavaBaseImage {

    static final String IMAGE_NAME = "brokerapp/java-base";
    static final int NONROOT = 65532;
    static final String JAVA_HOME = "/opt/java";

    /** Enough of Java SE for Spring Boot, the Cassandra driver (jdk.unsupported), Kafka and JFR. */
    static final List<String> MODULES = List.of("java.se", "jdk.unsupported", "jdk.crypto.ec", "jdk.management",
            "jdk.management.agent", "jdk.naming.dns", "jdk.zipfs", "jdk.jfr", "jdk.localedata");

    /** Libraries a headless server never loads; their X11, ALSA and font dependencies stay out. */
    static final Set<String> GUI_LIBRARIES = Set.of("libawt_xawt.so", "libsplashscreen.so", "libjsound.so",
            "libfontmanager.so", "libjawt.so", "liblcms.so", "libjavajpeg.so", "libmlib_image.so", "libawt.so",
            "libawt_headless.so");

    /** 2000-01-01T00:00:00Z: a fixed time for every file, so rebuilding gives the same digest. */
    static final long FIXED_TIME_MILLIS = 946_684_800_000L;

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: JavaBaseImage <output.tar> <work-dir>");
            System.exit(2);
        }
        Path output = Path.of(args[0]);
        Path work = Path.of(args[1]);
        long start = System.nanoTime();
        Path stamp = Path.of(output + ".stamp");
        String recipe;
        try (InputStream self = JavaBaseImage.class.getResourceAsStream("JavaBaseImage.class")) {
            // the JDK, and this builder's own code (which decides everything else in the image)
            recipe = System.getProperty("java.home") + " " + Runtime.version() + " " + sha256(self.readAllBytes());
        }
        if (Files.isRegularFile(output) && Files.isRegularFile(stamp) && Files.readString(stamp).equals(recipe)) {
            System.out.println("java-base-image: " + output + " is up to date (" + recipe + ")");
            return;
        }
        deleteRecursively(work);
        Path rootfs = work.resolve("rootfs");
        Path javaHome = rootfs.resolve(JAVA_HOME.substring(1));
        Files.createDirectories(javaHome.getParent());
        jlink(javaHome);
        TreeSet<Path> libraries = sharedLibraries(javaHome);
        for (Path library : libraries) {
            Path target = rootfs.resolve(library.toString().substring(1));
            Files.createDirectories(target.getParent());
            Files.copy(library.toRealPath(), target); // the soname path, with the real file's bytes
        }
        writeEtc(rootfs);
        Files.createDirectories(rootfs.resolve("tmp"));
        Files.createDirectories(rootfs.resolve("home/nonroot"));

        Path layer = work.resolve("layer.tar");
        String diffId = writeLayer(rootfs, layer);
        String javaVersion = Runtime.version().toString();
        byte[] config = config(diffId, javaVersion).getBytes(StandardCharsets.UTF_8);
        String configName = sha256(config) + ".json";
        String manifest = "[{\"Config\":\"" + configName + "\",\"RepoTags\":[\"" + IMAGE_NAME + ":" + javaVersion.replace('+', '_')
                + "\"],\"Layers\":[\"layer.tar\"]}]";
        Files.createDirectories(output.toAbsolutePath().getParent());
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(Files.newOutputStream(output))) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            addBytes(tar, configName, config);
            addBytes(tar, "manifest.json", manifest.getBytes(StandardCharsets.UTF_8));
            TarArchiveEntry entry = new TarArchiveEntry(layer.toFile(), "layer.tar");
            entry.setModTime(FIXED_TIME_MILLIS);
            tar.putArchiveEntry(entry);
            Files.copy(layer, tar);
            tar.closeArchiveEntry();
        }
        Files.writeString(stamp, recipe);
        System.out.printf("java-base-image: %s (Java %s, %d shared libraries, %,d bytes) in %.1f s%n", output, javaVersion,
                libraries.size(), Files.size(output), (System.nanoTime() - start) / 1e9);
    }

    static void jlink(Path javaHome) {
        ToolProvider jlink = ToolProvider.findFirst("jlink")
                .orElseThrow(() -> new IllegalStateException("jlink not found: build with a JDK, not a JRE (java.home = "
                        + System.getProperty("java.home") + ")"));
        StringWriter out = new StringWriter();
        int status = jlink.run(new PrintWriter(out), new PrintWriter(out), "--add-modules", String.join(",", MODULES),
                "--strip-debug", "--no-header-files", "--no-man-pages", "--compress=2", "--output", javaHome.toString());
        if (status != 0) {
            throw new IllegalStateException("jlink failed (" + status + "): " + out);
        }
    }

    /** The transitive shared libraries of the runtime (outside it), as the loader names them, plus the loader. */
    static TreeSet<Path> sharedLibraries(Path javaHome) throws IOException, InterruptedException {
        List<Path> binaries;
        try (Stream<Path> files = Files.walk(javaHome)) {
            binaries = files.filter(Files::isRegularFile)
                    .filter(p -> p.toString().endsWith(".so") || p.getParent().getFileName().toString().equals("bin"))
                    .filter(p -> !GUI_LIBRARIES.contains(p.getFileName().toString()))
                    .toList();
        }
        TreeSet<Path> libraries = new TreeSet<>();
        for (Path binary : binaries) {
            Process ldd = new ProcessBuilder("ldd", binary.toString()).redirectErrorStream(true).start();
            String text;
            try (InputStream in = ldd.getInputStream()) {
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            ldd.waitFor();
            for (String line : text.split("\n")) {
                String trimmed = line.trim();
                if (trimmed.contains("not found") && !trimmed.startsWith("libjvm.so")) {
                    throw new IllegalStateException(binary + " needs a library this machine lacks: " + trimmed);
                }
                // "libz.so.1 => /lib/x86_64-linux-gnu/libz.so.1 (0x...)" or "/lib64/ld-linux-x86-64.so.2 (0x...)"
                String path = trimmed.contains("=>") ? trimmed.substring(trimmed.indexOf("=>") + 2).trim() : trimmed;
                int paren = path.indexOf(" (");
                if (paren > 0) {
                    path = path.substring(0, paren);
                }
                if (path.startsWith("/") && !path.startsWith(javaHome.toString())) {
                    libraries.add(Path.of(path));
                }
            }
        }
        if (libraries.stream().noneMatch(p -> p.getFileName().toString().startsWith("libc.so"))) {
            throw new IllegalStateException("ldd found no libc for " + javaHome + ": is this a glibc Linux?");
        }
        return libraries;
    }

    static void writeEtc(Path rootfs) throws IOException {
        Path etc = Files.createDirectories(rootfs.resolve("etc"));
        Files.writeString(etc.resolve("passwd"), "root:x:0:0:root:/root:/sbin/nologin\n"
                + "nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\n"
                + "nonroot:x:" + NONROOT + ":" + NONROOT + ":nonroot:/home/nonroot:/sbin/nologin\n");
        Files.writeString(etc.resolve("group"), "root:x:0:\nnobody:x:65534:\nnonroot:x:" + NONROOT + ":\n");
        Files.writeString(etc.resolve("nsswitch.conf"), "passwd: files\ngroup: files\nhosts: files dns\n");
    }

    /** An uncompressed layer tarball of the root filesystem; returns its diff id (sha256 of the tar). */
    static String writeLayer(Path rootfs, Path layer) throws IOException, NoSuchAlgorithmException {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        TreeMap<String, Path> entries = new TreeMap<>();
        try (Stream<Path> files = Files.walk(rootfs)) {
            files.filter(p -> !p.equals(rootfs)).forEach(p -> entries.put(rootfs.relativize(p).toString().replace('\\', '/'), p));
        }
        try (OutputStream file = Files.newOutputStream(layer);
             DigestOutputStream hashed = new DigestOutputStream(file, digest);
             TarArchiveOutputStream tar = new TarArchiveOutputStream(hashed)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (var e : entries.entrySet()) {
                Path path = e.getValue();
                boolean directory = Files.isDirectory(path);
                TarArchiveEntry entry = new TarArchiveEntry(e.getKey() + (directory ? "/" : ""));
                entry.setModTime(FIXED_TIME_MILLIS);
                boolean ownedByNonroot = e.getKey().equals("home/nonroot");
                entry.setIds(ownedByNonroot ? NONROOT : 0, ownedByNonroot ? NONROOT : 0);
                entry.setNames(ownedByNonroot ? "nonroot" : "root", ownedByNonroot ? "nonroot" : "root");
                if (directory) {
                    entry.setMode(e.getKey().equals("tmp") ? 01777 | 040000 : 040755);
                    tar.putArchiveEntry(entry);
                } else {
                    entry.setMode(Files.isExecutable(path) ? 0100755 : 0100644);
                    entry.setSize(Files.size(path));
                    tar.putArchiveEntry(entry);
                    Files.copy(path, tar);
                }
                tar.closeArchiveEntry();
            }
        }
        return "sha256:" + HexFormat.of().formatHex(digest.digest());
    }

    static String config(String diffId, String javaVersion) {
        return "{\"architecture\":\"amd64\",\"os\":\"linux\",\"created\":\"2000-01-01T00:00:00Z\","
                + "\"config\":{\"User\":\"" + NONROOT + ":" + NONROOT + "\",\"WorkingDir\":\"/home/nonroot\","
                + "\"Env\":[\"PATH=" + JAVA_HOME + "/bin:/usr/bin:/bin\",\"JAVA_HOME=" + JAVA_HOME + "\",\"JAVA_VERSION=" + javaVersion
                + "\",\"LANG=C.UTF-8\"],"
                + "\"Labels\":{\"org.opencontainers.image.title\":\"" + IMAGE_NAME + "\","
                + "\"org.opencontainers.image.description\":\"jlinked Java " + javaVersion
                + " runtime with the glibc, libstdc++ and zlib of the building machine; non-root user 65532\"}},"
                + "\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[\"" + diffId + "\"]},"
                + "\"history\":[{\"created\":\"2000-01-01T00:00:00Z\",\"created_by\":\"" + JavaBaseImage.class.getName() + "\"}]}";
    }

    static void addBytes(TarArchiveOutputStream tar, String name, byte[] bytes) throws IOException {
        TarArchiveEntry entry = new TarArchiveEntry(name);
        entry.setModTime(FIXED_TIME_MILLIS);
        entry.setSize(bytes.length);
        entry.setMode(0100644);
        tar.putArchiveEntry(entry);
        tar.write(bytes);
        tar.closeArchiveEntry();
    }

    static String sha256(byte[] bytes) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private JavaBaseImage() {
    }
}
