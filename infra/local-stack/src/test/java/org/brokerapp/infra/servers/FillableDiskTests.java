package org.brokerapp.infra.servers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

class FillableDiskTests {

    @Test
    void findsTheMountsBelowTheWorkDirectoryDeepestFirstAndNothingElse() {
        List<String> mounts = List.of(
                "/dev/vda / ext4 rw,relatime 0 0",
                "tmpfs /work/stack tmpfs rw 0 0",
                "tmpfs /work/stack/us-east-1/cassandra-3/data tmpfs rw,size=262144k 0 0",
                "tmpfs /work/stack/a/b/c/data tmpfs rw 0 0",
                "tmpfs /work/stack-2/us-east-1/cassandra-3/data tmpfs rw 0 0",
                "proc /proc proc rw 0 0");

        assertThat(FillableDisk.mountPointsUnder(Path.of("/work/stack"), mounts)).containsExactly(
                Path.of("/work/stack/a/b/c/data"), Path.of("/work/stack/us-east-1/cassandra-3/data"));
    }

    @Test
    void readsTheOctalEscapesOfProcMounts() {
        assertThat(FillableDisk.unescape("/work/my\\040stack/data")).isEqualTo("/work/my stack/data");
        assertThat(FillableDisk.unescape("/a\\134b")).isEqualTo("/a\\b");
        assertThat(FillableDisk.unescape("/plain\\04")).isEqualTo("/plain\\04");
        assertThat(FillableDisk.mountPointsUnder(Path.of("/work/my stack"), List.of("tmpfs /work/my\\040stack/n/data tmpfs rw 0 0")))
                .containsExactly(Path.of("/work/my stack/n/data"));
    }

    @Test
    void fillsADirectoryUntilItsFilesystemIsFullAndFreesIt(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        // without a filesystem of its own, a fill would take the machine's disk: only the write and the delete are checked here
        FillableDisk disk = new FillableDisk(dir, CassandraDisk.DATA);
        java.nio.file.Files.writeString(dir.resolve(FillableDisk.FILLER), "x");

        disk.free();

        assertThat(dir.resolve(FillableDisk.FILLER)).doesNotExist();
    }
}
