package org.brokerapp.loadtest.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BrokerClocksTests {

    @TempDir
    Path dir;

    @Test
    void offsetsAreWrittenInLibfaketimesRelativeForm() {
        assertThat(BrokerClocks.offset(Duration.ofSeconds(2))).isEqualTo("+2.000");
        assertThat(BrokerClocks.offset(Duration.ZERO)).isEqualTo("+0.000");
        assertThat(BrokerClocks.offset(Duration.ofMillis(-1250))).isEqualTo("-1.250");
    }

    @Test
    void aBrokerOnTheHostsClockGetsNoPreloadAndCannotBeStepped() {
        ProcessBuilder launcher = new ProcessBuilder("true");
        BrokerClocks.hosts().prepare("us-east-1", launcher);

        assertThat(launcher.environment()).doesNotContainKey("FAKETIME_TIMESTAMP_FILE");
        assertThatThrownBy(() -> BrokerClocks.hosts().step("us-east-1", Duration.ofSeconds(2)))
                .hasMessage("the us-east-1 broker was not started on a steppable clock");
    }

    @Test
    void withoutTheLibraryNoClockIsSteppable() {
        assertThatThrownBy(() -> BrokerClocks.steppable(Set.of("us-east-1"), dir, List.of(dir.resolve("missing.so"))))
                .hasMessage("stepping a broker's clock needs libfaketime, which is not installed (apt-get install faketime)");
    }

    @Test
    void theLibraryIsFoundOnlyWhereItIsInstalled() throws Exception {
        Path library = Files.createFile(dir.resolve("libfaketime.so.1"));

        assertThat(BrokerClocks.installed(List.of(dir.resolve("missing.so"), library))).contains(library);
        assertThat(BrokerClocks.installed(List.of(dir.resolve("missing.so")))).isEmpty();
    }

    @Test
    void aSteppableBrokerStartsAtOffsetZeroAndReadsEachStepFromItsFile() throws Exception {
        Path library = Files.createFile(dir.resolve("libfaketime.so.1"));
        BrokerClocks clocks = BrokerClocks.steppable(Set.of("us-east-1"), dir.resolve("clocks"), List.of(library));
        ProcessBuilder launcher = new ProcessBuilder("true");

        clocks.prepare("us-east-1", launcher);
        Path file = Path.of(launcher.environment().get("FAKETIME_TIMESTAMP_FILE"));
        assertThat(launcher.environment()).containsEntry("LD_PRELOAD", library.toString());
        assertThat(launcher.environment()).containsEntry("FAKETIME_CACHE_DURATION", "1")
                .as("faking the wall clock alone makes the JVM's timed waits spin").doesNotContainKey("FAKETIME_DONT_FAKE_MONOTONIC");
        assertThat(Files.readString(file)).isEqualTo("+0.000\n");

        clocks.step("us-east-1", Duration.ofSeconds(2));
        assertThat(Files.readString(file)).isEqualTo("+2.000\n");
        assertThatThrownBy(() -> clocks.step("ap-southeast-2", Duration.ofSeconds(2))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> clocks.step("us-east-1", Duration.ofSeconds(-2))).isInstanceOf(IllegalArgumentException.class);
    }
}
