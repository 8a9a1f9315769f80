package org.brokerapp.infra.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ClassDataArchiveTests {

    @TempDir
    Path dir;

    private Path lib;
    private final Path java = Path.of(System.getProperty("java.home"), "bin", "java");

    @BeforeEach
    void aClassPath() throws IOException {
        lib = Files.createDirectories(dir.resolve("lib"));
        Files.writeString(lib.resolve("a.jar"), "a");
        Files.writeString(lib.resolve("b.jar"), "b");
    }

    private ClassDataArchive archive(List<String> options) {
        return ClassDataArchive.of(dir.resolve("cds"), "server", List.of(lib), java, options);
    }

    /** What a JVM recording {@code recording} writes as it exits. */
    private static Path written(ClassDataArchive recording, String content) throws IOException {
        Path file = Path.of(recording.options(true).get(0).substring("-XX:ArchiveClassesAtExit=".length()));
        Files.writeString(file, content);
        return file;
    }

    @Test
    void withoutAnArchiveItRecordsOneOnlyWhenAsked() {
        ClassDataArchive archive = archive(List.of());

        assertThat(archive.exists()).isFalse();
        assertThat(archive.options(true)).anyMatch(o -> o.startsWith("-XX:ArchiveClassesAtExit=" + archive.path() + ".tmp-"))
                .noneMatch(o -> o.startsWith("-XX:SharedArchiveFile"));
        assertThat(archive.options(false)).noneMatch(o -> o.startsWith("-XX:ArchiveClassesAtExit") || o.startsWith("-XX:SharedArchiveFile"));
    }

    /** A JVM records only when it may and there is no archive yet; once there is one, every JVM maps it instead. */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aJvmRecordsOnlyWhenItMayAndThereIsNoArchive(boolean mayRecord) throws IOException {
        ClassDataArchive archive = archive(List.of());

        assertThat(archive.toRecord(mayRecord)).isEqualTo(mayRecord ? Optional.of(archive) : Optional.empty());
        written(archive, "classes");
        archive.keepRecorded(true);
        assertThat(archive(List.of()).toRecord(mayRecord)).isEmpty();
    }

    @Test
    void theArchiveBesideAServersLibrariesLivesInTheirSiblingCdsDirectory() {
        assertThat(ClassDataArchive.besideLibraries(lib, "server", java, List.of()).path()).isEqualTo(archive(List.of()).path());
    }

    /** Kept after a clean exit, and mapped from then on; thrown away when the JVM did not exit by itself (half an archive, maybe). */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aRecordingIsKeptOnlyAfterACleanExit(boolean exitedCleanly) throws IOException {
        ClassDataArchive recording = archive(List.of());
        Path written = written(recording, "classes");

        recording.keepRecorded(exitedCleanly);

        assertThat(written).doesNotExist();
        ClassDataArchive later = archive(List.of());
        assertThat(later.exists()).isEqualTo(exitedCleanly);
        assertThat(later.options(true).stream().anyMatch(o -> o.equals("-XX:SharedArchiveFile=" + later.path()))).isEqualTo(exitedCleanly);
        assertThat(later.options(true).stream().anyMatch(o -> o.startsWith("-XX:ArchiveClassesAtExit"))).isEqualTo(!exitedCleanly);
    }

    /** Kept by whoever stops a detached stack once its JVMs stopped by themselves; thrown away when one had to be killed. */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aDetachedStacksRecordingsAreSettledByWhoeverStopsIt(boolean stoppedByThemselves) throws IOException {
        ClassDataArchive recording = archive(List.of());
        Path note = dir.resolve("class-data-recordings");
        ClassDataArchive.noteLeft(note, List.of(recording));
        Path written = written(recording, "classes");

        ClassDataArchive.settleLeft(note, stoppedByThemselves);

        assertThat(archive(List.of()).exists()).isEqualTo(stoppedByThemselves);
        assertThat(written).doesNotExist();
        assertThat(note).doesNotExist();
        ClassDataArchive.settleLeft(note, !stoppedByThemselves); // nothing noted any more: nothing changes
        assertThat(archive(List.of()).exists()).isEqualTo(stoppedByThemselves);
    }

    @Test
    void twoJvmsRecordingAtOnceWriteToFilesOfTheirOwn() {
        assertThat(archive(List.of()).options(true).get(0)).isNotEqualTo(archive(List.of()).options(true).get(0));
    }

    @Test
    void aChangedClassPathOrOptionGetsAnArchiveOfItsOwn() throws IOException {
        Path before = archive(List.of()).path();

        assertThat(archive(List.of("metrics=true")).path()).isNotEqualTo(before);
        Files.setLastModifiedTime(lib.resolve("b.jar"), FileTime.fromMillis(Files.getLastModifiedTime(lib.resolve("b.jar")).toMillis() + 1_000));
        assertThat(archive(List.of()).path()).isNotEqualTo(before);
        Path afterTouch = archive(List.of()).path();
        Files.writeString(lib.resolve("c.jar"), "c");
        assertThat(archive(List.of()).path()).isNotEqualTo(afterTouch);
    }
}
