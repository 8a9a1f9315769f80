package org.brokerapp.loadtest.target;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * How a broker JVM is launched from a Spring Boot jar, with application class data sharing
 * (AppCDS): the jar is extracted once ({@code java -Djarmode=tools -jar ... extract}; classes in
 * nested jars cannot be shared), the first broker started from it records the classes it loaded
 * into an archive when it exits ({@code -XX:ArchiveClassesAtExit}), and every later start maps
 * that archive instead of loading, verifying and parsing those classes again
 * ({@code -XX:SharedArchiveFile}). The extraction and the archive live next to the jar, keyed by
 * the jar's digest, so a rebuilt jar gets its own and a stale archive is never used.
 */
final class BrokerJvm {

    private final Path extracted;
    private final Path archive;

    private BrokerJvm(Path extracted, Path archive) {
        this.extracted = extracted;
        this.archive = archive;
    }

    /** Prepares the extracted layout of {@code jar} (once per jar content). */
    static BrokerJvm of(Path jar) {
        Path cache = jar.toAbsolutePath().resolveSibling(jar.getFileName() + ".cds").resolve(digest(jar));
        Path extracted = cache.resolve("app");
        if (!Files.isRegularFile(extracted.resolve(jar.getFileName()))) {
            extract(jar, cache, extracted);
        }
        return new BrokerJvm(extracted.resolve(jar.getFileName()), cache.resolve("broker.jsa"));
    }

    /**
     * The java command line up to the application's own arguments. With {@code train} and no
     * archive yet, this JVM writes the archive when it exits; only one JVM at a time may do so.
     */
    List<String> command(Path java, List<String> jvmOptions, boolean train) {
        List<String> command = new ArrayList<>(List.of(java.toString()));
        command.addAll(jvmOptions);
        if (Files.isRegularFile(archive)) {
            command.add("-XX:SharedArchiveFile=" + archive);
        } else if (train) {
            command.add("-XX:ArchiveClassesAtExit=" + training());
        }
        // the archive's own notes (classes it cannot hold, and the like) are not the broker's business
        command.add("-Xlog:cds*=error");
        command.add("-jar");
        command.add(extracted.toString());
        return command;
    }

    boolean hasArchive() {
        return Files.isRegularFile(archive);
    }

    /**
     * After the training JVM has exited: keeps its archive if it exited by itself (a JVM killed while
     * writing leaves half an archive, which is thrown away and recorded again next time).
     */
    void keepTrainedArchive(boolean exitedCleanly) {
        try {
            if (exitedCleanly && Files.size(training()) > 0) {
                Files.move(training(), archive, StandardCopyOption.ATOMIC_MOVE);
            } else {
                Files.deleteIfExists(training());
            }
        } catch (IOException noArchive) {
            // nothing recorded (or another harness kept one first): the next start records again
        }
    }

    private Path training() {
        return archive.resolveSibling(archive.getFileName() + ".tmp-" + ProcessHandle.current().pid());
    }

    private static void extract(Path jar, Path cache, Path extracted) {
        Path tmp = cache.resolveSibling(cache.getFileName() + ".tmp-" + ProcessHandle.current().pid());
        Path log = tmp.resolve("extract.log");
        try {
            Files.createDirectories(tmp);
            Process extract = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Djarmode=tools", "-jar", jar.toAbsolutePath().toString(), "extract", "--destination", tmp.resolve("app").toString())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!extract.waitFor(120, TimeUnit.SECONDS) || extract.exitValue() != 0) {
                extract.destroyForcibly();
                throw new IllegalStateException("cannot extract " + jar + " for class data sharing; see " + log);
            }
            Files.createDirectories(cache);
            try {
                Files.move(tmp.resolve("app"), extracted, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException | DirectoryNotEmptyException extractedMeanwhile) {
                // another harness extracted the same jar first: its copy is as good
            }
            Files.delete(log);
            Files.delete(tmp);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract " + jar + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while extracting " + jar, e);
        }
    }

    private static String digest(Path jar) {
        try (InputStream in = Files.newInputStream(jar)) {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[1 << 16];
            for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
                sha.update(buffer, 0, n);
            }
            return HexFormat.of().formatHex(sha.digest(), 0, 8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + jar, e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
