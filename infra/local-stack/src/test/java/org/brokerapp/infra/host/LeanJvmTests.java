package org.brokerapp.infra.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * The options are only ever read by a JVM at a server's start: one this JVM refuses would stop every stack from starting, and a
 * CompileCommand it cannot parse would be dropped with a line in a log nobody reads.
 */
class LeanJvmTests {

    @Test
    void thisJvmStartsWithEveryOptionSet() throws Exception {
        for (List<String> options : List.of(LeanJvm.SHARED_CORES, LeanJvm.SMALL_MACHINE)) {
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
            command.addAll(options);
            command.add("-version");

            Result result = run(command);

            assertThat(result.exitCode()).as("java %s -version: %s", options, result.output()).isZero();
            // a CompileCommand the JVM cannot parse is only reported, and the JVM starts without it
            assertThat(result.output()).doesNotContain("Unrecognized", "Ignoring option", "error occurred");
        }
    }

    @Test
    void theBrokersHotPathsAndNothingElseCompileAtAQuarterOfTheThresholds() {
        assertThat(LeanJvm.SMALL_MACHINE).doesNotContain(LeanJvm.COMPILE_AT_TENS_A_SECOND)
                .containsAll(LeanJvm.COMPILE_HOT_PATHS_AT_TENS_A_SECOND)
                .contains("-XX:CompileCommand=CompileThresholdScaling,org.brokerapp.*::*,0.25");
    }

    private record Result(int exitCode, String output) {
    }

    private static Result run(List<String> command) throws IOException, InterruptedException {
        Process java = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(java.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(java.exitValue(), output);
    }
}
