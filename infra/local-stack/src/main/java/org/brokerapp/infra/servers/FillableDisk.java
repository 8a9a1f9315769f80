package org.brokerapp.infra.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.brokerapp.infra.host.Privileges;
import org.brokerapp.infra.host.StackException;

/**
 * A small filesystem of its own (a tmpfs) mounted on one of a Cassandra node's directories, so that a disk drill can
 * fill that node's disk and nothing else on the machine. Mounting needs root. When it holds the data directory, the
 * node's commit log stays on the machine's disk: what the node acknowledged before its data disk filled is in it and is
 * replayed at restart. When it holds the commit log, a write the node cannot log is not acknowledged by it.
 *
 * @param mountPoint where the filesystem is mounted
 * @param holds      which of the node's directories it is
 */
public record FillableDisk(Path mountPoint, CassandraDisk holds) {

    /**
     * Room for this stack's sstables many times over (a demo run writes a few MB), or for its commit log (Cassandra keeps
     * it under a quarter of the volume, flushing memtables to stay there), small enough to fill in a second.
     */
    public static final int SIZE_MB = 256;
    static final String FILLER = "disk-drill-filler";
    private static final int CHUNK = 1 << 20;

    /** Mounts a {@link #SIZE_MB} MB tmpfs on {@code dir} (created if missing), or fails with a one-line reason. */
    public static FillableDisk mount(Path dir, CassandraDisk holds) {
        if (!Privileges.root()) {
            throw new StackException("a disk drill mounts a small filesystem on one Cassandra node's " + holds.directory() + " directory,"
                    + " which needs root: run it as root");
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new StackException("cannot create " + dir + ": " + e.getMessage(), e);
        }
        run("mount", "-t", "tmpfs", "-o", "size=" + SIZE_MB + "m,mode=0755", "tmpfs", dir.toString());
        return new FillableDisk(dir, holds);
    }

    /** Writes a file until the filesystem has no room left: the bytes written. */
    public long fill() {
        ByteBuffer chunk = ByteBuffer.allocate(CHUNK);
        long written = 0;
        try (FileChannel out = FileChannel.open(mountPoint.resolve(FILLER), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            while (true) {
                chunk.clear();
                written += out.write(chunk);
            }
        } catch (IOException full) {
            // "No space left on device": what the drill is after
            return written;
        }
    }

    /** Deletes what {@link #fill} wrote. */
    public void free() {
        try {
            Files.deleteIfExists(mountPoint.resolve(FILLER));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void unmount() {
        run("umount", mountPoint.toString());
    }

    /** Unmounts every filesystem mounted below {@code root} (one a crashed run left behind), deepest first. */
    public static void unmountAllUnder(Path root) {
        List<String> mounts;
        try {
            mounts = Files.readAllLines(Path.of("/proc/self/mounts"));
        } catch (IOException e) {
            return;
        }
        for (Path mountPoint : mountPointsUnder(root, mounts)) {
            run("umount", mountPoint.toString());
        }
    }

    /** The mount points of {@code mounts} (lines of {@code /proc/self/mounts}) below {@code root}, deepest first. */
    static List<Path> mountPointsUnder(Path root, List<String> mounts) {
        Path base = root.toAbsolutePath().normalize();
        List<Path> below = new ArrayList<>();
        for (String line : mounts) {
            String[] fields = line.split(" ");
            if (fields.length < 2) {
                continue;
            }
            Path mountPoint = Path.of(unescape(fields[1]));
            if (mountPoint.startsWith(base) && !mountPoint.equals(base)) {
                below.add(mountPoint);
            }
        }
        below.sort(Comparator.comparingInt(Path::getNameCount).reversed());
        return below;
    }

    /** {@code /proc/self/mounts} writes space, tab, newline and backslash in paths as octal escapes ({@code \040}). */
    static String unescape(String field) {
        StringBuilder out = new StringBuilder(field.length());
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '\\' && i + 3 < field.length() && field.substring(i + 1, i + 4).chars().allMatch(d -> d >= '0' && d <= '7')) {
                out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static void run(String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new StackException(String.join(" ", command) + " did not finish in 30 s");
            }
            String output = new String(process.getInputStream().readAllBytes()).strip();
            if (process.exitValue() != 0) {
                throw new StackException(String.join(" ", command) + " failed: " + (output.isEmpty() ? "exit " + process.exitValue() : output.lines().findFirst().orElse("")));
            }
        } catch (IOException e) {
            throw new StackException("cannot run " + command[0] + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StackException(command[0] + " interrupted", e);
        }
    }
}
