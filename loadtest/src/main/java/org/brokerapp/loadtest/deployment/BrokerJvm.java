package org.brokerapp.loadtest.deployment;

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

import org.brokerapp.infra.host.ClassDataArchive;

/**
 * How a broker JVM is launched from a Spring Boot jar, with application class data sharing
 * (AppCDS, {@link ClassDataArchive}): the jar is extracted once ({@code java -Djarmode=tools -jar
 * ... extract}; classes in nested jars cannot be shared), the first broker started from it records
 * the classes it loaded into an archive when it exits, and every later start maps that archive.
 * The extraction and the archive live next to the jar, keyed by the jar's digest, so a rebuilt jar
 * gets its own and a stale archive is never used.
 */
final class BrokerJvm {

    private final Path java;
    private final Path extracted;
    private final ClassDataArchive archive;

    private BrokerJvm(Path java, Path extracted, ClassDataArchive archive) {
        this.java = java;
        this.extracted = extracted;
        this.archive = archive;
    }

    /** Prepares the extracted layout of {@code jar} (once per jar content), to run on {@code java}. */
    static BrokerJvm of(Path jar, Path java) {
        Path cache = jar.toAbsolutePath().resolveSibling(jar.getFileName() + ".cds").resolve(digest(jar));
        Path extracted = cache.resolve("app");
        if (!Files.isRegularFile(extracted.resolve(jar.getFileName()))) {
            extract(jar, cache, extracted);
        }
        Path app = extracted.resolve(jar.getFileName());
        return new BrokerJvm(java, app, ClassDataArchive.of(cache, "broker", List.of(app), java, List.of()));
    }

    /**
     * The java command line up to the application's own arguments. With {@code train} and no
     * archive yet, this JVM writes the archive when it exits.
     */
    List<String> command(List<String> jvmOptions, boolean train) {
        List<String> command = new ArrayList<>(List.of(java.toString()));
        command.addAll(jvmOptions);
        command.addAll(archive.options(train));
        command.add("-jar");
        command.add(extracted.toString());
        return command;
    }

    boolean hasArchive() {
        return archive.exists();
    }

    /**
     * After the training JVM has exited: keeps its archive if it exited by itself (a JVM killed while
     * writing leaves half an archive, which is thrown away and recorded again next time).
     */
    void keepTrainedArchive(boolean exitedCleanly) {
        archive.keepRecorded(exitedCleanly);
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
