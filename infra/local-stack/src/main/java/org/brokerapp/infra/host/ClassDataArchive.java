package org.brokerapp.infra.host;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * A dynamic class data sharing archive (AppCDS) for one kind of JVM: the first JVM started without
 * one records the classes it loaded when it exits ({@code -XX:ArchiveClassesAtExit}), and every
 * later start maps that archive instead of loading, verifying and parsing those classes again
 * ({@code -XX:SharedArchiveFile}). A server JVM spends most of its start-up CPU there on a small
 * machine. The archive's name holds a digest of what it was recorded from (the class path, the
 * JVM, the options that change what is loaded), so a rebuilt class path or another JDK gets an
 * archive of its own and a stale one is never mapped. Any JVM may record; the last to exit cleanly is kept.
 */
public final class ClassDataArchive {

    private static final AtomicLong RECORDINGS = new AtomicLong();

    private final Path archive;
    /** Where this JVM writes it: a name of its own, as two may start at once (they are then both kept, one after the other). */
    private final Path recording;

    private ClassDataArchive(Path archive) {
        this(archive, archive.resolveSibling(archive.getFileName() + ".tmp-" + ProcessHandle.current().pid() + "-" + RECORDINGS.incrementAndGet()));
    }

    private ClassDataArchive(Path archive, Path recording) {
        this.archive = archive;
        this.recording = recording;
    }

    /** The archive under {@code dir} for a JVM with this class path, its options and the JVM it runs on. */
    public static ClassDataArchive of(Path dir, String kind, List<Path> classPath, Path java, List<String> options) {
        return new ClassDataArchive(dir.resolve(kind + "-" + digest(classPath, java, options) + ".jsa"));
    }

    /** The archive kept beside a server's libraries ({@code lib}'s sibling {@code cds}), for a JVM with {@code lib} as its class path. */
    public static ClassDataArchive besideLibraries(Path lib, String kind, Path java, List<String> options) {
        return of(lib.resolveSibling("cds"), kind, List.of(lib), java, options);
    }

    /** This archive, for the JVM about to start to record as it exits: when it may and there is none yet. */
    public Optional<ClassDataArchive> toRecord(boolean mayRecord) {
        return mayRecord && !exists() ? Optional.of(this) : Optional.empty();
    }

    /** The options that map the archive, or that record it at exit when {@code record} and there is none yet. */
    public List<String> options(boolean record) {
        // a JVM with an agent (Cassandra's jamm, the JMX exporter) records only when told that is fine (none of these
        // agents changes a class it loads), and maps an archive only with the setting it was recorded with; the
        // archive's own notes (classes it cannot hold, and the like) are not the server's business
        List<String> common = List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:+AllowArchivingWithJavaAgent", "-Xlog:cds*=error");
        if (Files.isRegularFile(archive)) {
            return Stream.concat(Stream.of("-XX:SharedArchiveFile=" + archive), common.stream()).toList();
        }
        return record ? Stream.concat(Stream.of("-XX:ArchiveClassesAtExit=" + recording()), common.stream()).toList() : common;
    }

    public boolean exists() {
        return Files.isRegularFile(archive);
    }

    /**
     * After the recording JVM has exited: keeps what it wrote if it exited by itself (a JVM killed while
     * writing leaves half an archive, which is thrown away and recorded again next time).
     */
    public void keepRecorded(boolean exitedCleanly) {
        try {
            if (exitedCleanly && Files.isRegularFile(recording()) && Files.size(recording()) > 0) {
                Files.move(recording(), archive, StandardCopyOption.ATOMIC_MOVE);
            } else {
                Files.deleteIfExists(recording());
            }
        } catch (IOException notKept) {
            // nothing recorded (or another process kept one first): the next start records again
        }
    }

    public Path path() {
        return archive;
    }

    /**
     * For a stack left running ({@code stack up --detach}): writes where its recording JVMs will leave their
     * archives, for {@link #settleLeft} to keep or throw away once {@code stack down} has stopped them.
     */
    public static void noteLeft(Path list, List<ClassDataArchive> recordings) {
        try {
            Files.write(list, recordings.stream().map(r -> r.recording + "\t" + r.archive).toList());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + list, e);
        }
    }

    /** Keeps the archives {@link #noteLeft noted} if their JVMs stopped by themselves (else throws them away), and forgets the note. */
    public static void settleLeft(Path list, boolean stoppedByThemselves) {
        if (!Files.isRegularFile(list)) {
            return;
        }
        try {
            for (String line : Files.readAllLines(list)) {
                String[] paths = line.split("\t");
                if (paths.length == 2) {
                    new ClassDataArchive(Path.of(paths[1]), Path.of(paths[0])).keepRecorded(stoppedByThemselves);
                }
            }
            Files.delete(list);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + list, e);
        }
    }

    private Path recording() {
        try {
            Files.createDirectories(archive.getParent());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + archive.getParent(), e);
        }
        return recording;
    }

    /** Each class path entry by name, size and time (a directory by its files), the JVM's binary and library likewise, the options. */
    private static String digest(List<Path> classPath, Path java, List<String> options) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (Path entry : classPath) {
                for (Path file : filesOf(entry)) {
                    sha.update((file + "|" + Files.size(file) + "|" + Files.getLastModifiedTime(file).toMillis() + "\n").getBytes(StandardCharsets.UTF_8));
                }
            }
            Path realJava = java.toRealPath();
            Path libjvm = realJava.getParent().getParent().resolve("lib/server/libjvm.so");
            for (Path file : Files.isRegularFile(libjvm) ? List.of(realJava, libjvm) : List.of(realJava)) {
                sha.update((file + "|" + Files.size(file) + "|" + Files.getLastModifiedTime(file).toMillis() + "\n").getBytes(StandardCharsets.UTF_8));
            }
            sha.update(String.join("\n", options).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha.digest(), 0, 8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the class path for its class data archive: " + e.getMessage(), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<Path> filesOf(Path entry) throws IOException {
        if (!Files.isDirectory(entry)) {
            return List.of(entry);
        }
        try (Stream<Path> files = Files.list(entry)) {
            return files.filter(Files::isRegularFile).sorted().toList();
        }
    }
}
