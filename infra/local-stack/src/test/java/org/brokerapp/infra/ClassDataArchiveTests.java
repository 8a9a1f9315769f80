package org.brokerapp.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    @Test
    void withoutAnArchiveItRecordsOneOnlyWhenAsked() {
        ClassDataArchive archive = archive(List.of());

        assertThat(archive.exists()).isFalse();
        assertThat(archive.options(true)).anyMatch(o -> o.startsWith("-XX:ArchiveClassesAtExit=" + archive.path() + ".tmp-"))
                .noneMatch(o -> o.startsWith("-XX:SharedArchiveFile"));
        assertThat(archive.options(false)).noneMatch(o -> o.startsWith("-XX:ArchiveClassesAtExit") || o.startsWith("-XX:SharedArchiveFile"));
    }

    @Test
    void aRecordingKeptAfterACleanExitIsMappedFromThenOn() throws IOException {
        ClassDataArchive recording = archive(List.of());
        Path written = Path.of(recording.options(true).get(0).substring("-XX:ArchiveClassesAtExit=".length()));
        Files.writeString(written, "classes");

        recording.keepRecorded(true);

        assertThat(written).doesNotExist();
        ClassDataArchive later = archive(List.of());
        assertThat(later.exists()).isTrue();
        assertThat(later.options(true)).contains("-XX:SharedArchiveFile=" + later.path()).noneMatch(o -> o.startsWith("-XX:ArchiveClassesAtExit"));
    }

    @Test
    void aRecordingOfAJvmThatDidNotExitByItselfIsThrownAway() throws IOException {
        ClassDataArchive recording = archive(List.of());
        Path written = Path.of(recording.options(true).get(0).substring("-XX:ArchiveClassesAtExit=".length()));
        Files.writeString(written, "half an archive");

        recording.keepRecorded(false);

        assertThat(written).doesNotExist();
        assertThat(archive(List.of()).exists()).isFalse();
    }

    @Test
    void aDetachedStacksRecordingsAreKeptByWhoeverStopsItOnceItsJvmsStoppedByThemselves() throws IOException {
        ClassDataArchive recording = archive(List.of());
        Path written = Path.of(recording.options(true).get(0).substring("-XX:ArchiveClassesAtExit=".length()));
        Path note = dir.resolve("class-data-recordings");
        ClassDataArchive.noteLeft(note, List.of(recording));
        Files.writeString(written, "classes");

        ClassDataArchive.settleLeft(note, true);

        assertThat(archive(List.of()).exists()).isTrue();
        assertThat(written).doesNotExist();
        assertThat(note).doesNotExist();
    }

    @Test
    void aDetachedStacksRecordingsAreThrownAwayWhenAJvmHadToBeKilled() throws IOException {
        ClassDataArchive recording = archive(List.of());
        Path written = Path.of(recording.options(true).get(0).substring("-XX:ArchiveClassesAtExit=".length()));
        Path note = dir.resolve("class-data-recordings");
        ClassDataArchive.noteLeft(note, List.of(recording));
        Files.writeString(written, "half an archive");

        ClassDataArchive.settleLeft(note, false);

        assertThat(archive(List.of()).exists()).isFalse();
        assertThat(written).doesNotExist();
        ClassDataArchive.settleLeft(note, true); // nothing noted any more: nothing to do
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
