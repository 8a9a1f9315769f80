package org.brokerapp.infra.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiskErrorLogTests {

    @TempDir
    Path dir;

    @Test
    void namesTheDiskFailurePolicysLineAndTheCauseOfWhatWasLoggedAfterTheFill() throws Exception {
        Path log = dir.resolve("system.log");
        String before = "ERROR [main] 2026-11-23 16:26:08,764 Old.java:1 - an error from before the fill\n";
        Files.writeString(log, before + """
                INFO  [main] 2026-11-23 16:31:30,700 Flush.java:1 - Flushing
                ERROR [MemtableFlushWriter:3] 2026-11-23 16:31:30,777 LogReplica.java:129 - Failed to sync file /a/very/long/path
                org.apache.cassandra.io.FSWriteError: java.io.IOException: No space left on device
                ERROR [MemtableFlushWriter:3] 2026-11-23 16:31:30,895 DefaultFSErrorHandler.java:72 - Stopping transports as disk_failure_policy is stop
                """);

        assertThat(ServerLogs.diskErrorAfter(log, before.length()))
                .hasValue("Stopping transports as disk_failure_policy is stop (No space left on device)");
    }

    @Test
    void withoutAPolicyLineTheFirstErrorShortenedAndNothingWhenNothingWasLogged() throws Exception {
        Path log = dir.resolve("system.log");
        Files.writeString(log, "ERROR [x] 2026-11-23 16:31:30,777 A.java:1 - " + "x".repeat(300) + "\n");

        assertThat(ServerLogs.diskErrorAfter(log, 0)).hasValueSatisfying(s -> assertThat(s).hasSize(123).endsWith("..."));
        assertThat(ServerLogs.diskErrorAfter(log, Files.size(log))).isEmpty();
        assertThat(ServerLogs.diskErrorAfter(dir.resolve("missing.log"), 0)).isEmpty();
    }

    @Test
    void aJvmCrashIsNamedByItsSignalAndThread() throws Exception {
        // the first lines of the report the drilled node's JVM wrote when its commit log disk filled (2026-11-23)
        Path report = Files.writeString(dir.resolve("hs_err_pid3012.log"), """
                #
                # A fatal error has been detected by the Java Runtime Environment:
                #
                #  SIGBUS (0x7) at pc=0x00007f26ac938ff5, pid=3012, tid=3126
                #
                # Problematic frame:
                # v  ~StubRoutines::updateBytesCRC32
                ---------------  T H R E A D  ---------------

                Current thread (0x00007f261c040a80):  JavaThread "MutationStage-1" daemon [_thread_in_Java, id=3126]
                """);

        assertThat(ServerLogs.crashSummary(report)).hasValue("the JVM crashed: SIGBUS in thread MutationStage-1 (hs_err_pid3012.log)");
        assertThat(ServerLogs.crashSummary("garbage", "hs_err_pid1.log")).isEqualTo("the JVM crashed (hs_err_pid1.log)");
    }
}
