package org.brokerapp.infra.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.brokerapp.infra.host.ClassDataArchive;
import org.brokerapp.infra.host.ProcessCpu;
import org.brokerapp.infra.host.Progress;
import org.brokerapp.infra.host.ServerProcess;
import org.brokerapp.infra.host.StackException;
import org.brokerapp.infra.servers.CassandraNode;
import org.brokerapp.infra.servers.FillableDisk;
import org.brokerapp.infra.stack.ClusterProbe;
import org.brokerapp.infra.stack.LocalStack;
import org.brokerapp.infra.stack.NodeStatus;
import org.brokerapp.infra.stack.StackLayout;
import org.brokerapp.infra.stack.StackSettings;
import org.brokerapp.infra.stack.StackState;
import org.brokerapp.infra.wan.ToxiproxyWan;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code infra/bin/stack}: brings the local stack up (in the foreground until Ctrl-C, or
 * {@code --detach}ed), reports its status, cuts and heals regions, and brings it down. The
 * project's command-line conventions ({@link CliConventions}): {@code --help}, one line and exit 2
 * on a usage mistake, one line and exit 1 on a failure.
 */
@Command(name = "stack", usageHelpAutoWidth = true,
        description = "The local multi-region stack on real servers: a Cassandra DC, a Kafka and an Elasticsearch node per region, the emulated WAN between them, Prometheus over it all.",
        subcommands = {StackCli.Up.class, StackCli.Down.class, StackCli.Status.class, StackCli.Cut.class, StackCli.Heal.class, StackCli.Cpu.class})
public final class StackCli implements Callable<Integer> {

    @Mixin
    CliConventions.Help help;

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        System.exit(CliConventions.execute("stack", new StackCli(), args));
    }

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "a command is needed: up, down, status, cut or heal");
    }

    /** Where the stack lives: the same for every command, so 'down' finds what 'up' started. */
    static final class Where {
        @Option(names = "--work-dir", paramLabel = "DIR", description = "where data, logs and configuration live (default: .stack)")
        Path workDir = Path.of(System.getProperty("stack.work-dir", ".stack"));

        @Option(names = "--instance", paramLabel = "N", description = "loopback slice 127.2N.x.x; tests use 1 (default: 0)")
        int instance;

        @Option(names = "--regions", paramLabel = "FILE", description = "the regions model (default: infra/regions.yaml)")
        Optional<Path> regionsFile = Optional.empty();
    }

    @Command(name = "up", usageHelpAutoWidth = true,
            description = "Start the stack, print what runs where, and stay until Ctrl-C (or --detach).")
    static final class Up implements Callable<Integer> {
        @Mixin
        CliConventions.Help help;

        @Mixin
        Where where = new Where();

        @Option(names = "--clean", description = "wipe the work directory first")
        boolean clean;

        @Option(names = "--detach", description = "return once the stack is ready and leave it running ('stack down' stops it)")
        boolean detach;

        @Option(names = "--nodes-per-dc", paramLabel = "N", description = "Cassandra nodes per data center, 1 to 3 (default: as in the regions model)")
        Integer nodesPerDc;

        @Option(names = "--no-wan", description = "no WAN emulation: regions talk at loopback speed and cannot be cut")
        boolean noWan;

        @Option(names = "--kafka-only", description = "a Kafka per region and nothing else")
        boolean kafkaOnly;

        @Option(names = "--no-search", description = "no Elasticsearch node: brokers trade without search")
        boolean noSearch;

        @Option(names = "--no-metrics", description = "no Prometheus and no JMX exporter agents: the servers run unobserved")
        boolean noMetrics;

        @Option(names = "--tls", description = "TLS on CQL (clients and internode) with certificates from a CA of the stack's own (under the work directory); brokers started by the tests or loadtest serve HTTPS")
        boolean tls;

        @Override
        public Integer call() {
            Progress progress = new Progress(System.out);
            LocalStack stack = LocalStack.start(settings(), clean, layoutArgs(), progress);
            System.out.print(stack.describe());
            if (detach) {
                System.out.println("Detached: the servers keep running; stop them with infra/bin/stack down");
                stack.detach();
                return 0;
            }
            CountDownLatch forever = new CountDownLatch(1);
            try {
                forever.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return 0;
        }

        StackSettings settings() {
            StackSettings settings = StackSettings.defaults(where.workDir, where.instance).withRegions(where.regionsFile)
                    .withNodesPerDc(nodesPerDc == null ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(nodesPerDc))
                    .withWanEmulation(!noWan).withSearch(!noSearch).withMetrics(!noMetrics).withTls(tls);
            return kafkaOnly ? settings.kafkaOnly() : settings;
        }

        /** The options that shape the layout, saved with the running stack so other commands see the same one. */
        String layoutArgs() {
            List<String> args = new ArrayList<>(List.of("--work-dir", where.workDir.toAbsolutePath().toString(), "--instance", Integer.toString(where.instance)));
            if (nodesPerDc != null) {
                args.addAll(List.of("--nodes-per-dc", Integer.toString(nodesPerDc)));
            }
            where.regionsFile.ifPresent(f -> args.addAll(List.of("--regions", f.toAbsolutePath().toString())));
            if (noWan) {
                args.add("--no-wan");
            }
            if (noSearch) {
                args.add("--no-search");
            }
            if (noMetrics) {
                args.add("--no-metrics");
            }
            if (kafkaOnly) {
                args.add("--kafka-only");
            }
            if (tls) {
                args.add("--tls");
            }
            return String.join(" ", args);
        }
    }

    @Command(name = "down", usageHelpAutoWidth = true,
            description = "Stop a stack started from this work directory (a harmless no-op when none runs).")
    static final class Down implements Callable<Integer> {
        @Mixin
        CliConventions.Help help;

        @Mixin
        Where where = new Where();

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            Path workDir = where.workDir.toAbsolutePath().normalize();
            Optional<StackState> state = StackState.read(workDir);
            if (state.isEmpty()) {
                spec.commandLine().getOut().println("no stack is running from " + workDir);
                return 0;
            }
            long launcher = state.get().launcherPid();
            if (launcher > 0 && launcher != ProcessHandle.current().pid()) {
                ProcessHandle.of(launcher).ifPresent(p -> {
                    spec.commandLine().getOut().println("asking the launcher (pid " + launcher + ") to stop the stack");
                    p.destroy();
                    p.onExit().orTimeout(90, TimeUnit.SECONDS).exceptionally(t -> p).join();
                });
            }
            List<ProcessHandle> servers = state.get().serverPids().stream()
                    .flatMap(pid -> ProcessHandle.of(pid).stream()).filter(ProcessHandle::isAlive).toList();
            servers.forEach(p -> {
                spec.commandLine().getOut().println("stopping pid " + p.pid() + " " + p.info().command().orElse(""));
                p.destroy();
            });
            // all at once: each Cassandra node takes several seconds to drain
            // a server recording its class data archive writes it on its way out: a minute more
            long deadline = System.nanoTime() + LocalStack.STOP_GRACE.plusSeconds(60).toNanos();
            boolean allStoppedByThemselves = true;
            for (ProcessHandle p : servers) {
                long left = Math.max(0, deadline - System.nanoTime());
                if (p.onExit().orTimeout(left, TimeUnit.NANOSECONDS).exceptionally(t -> p).join().isAlive()) {
                    p.destroyForcibly();
                    allStoppedByThemselves = false;
                }
            }
            ClassDataArchive.settleLeft(LocalStack.leftRecordings(workDir), allStoppedByThemselves);
            try {
                FillableDisk.unmountAllUnder(workDir);
            } catch (StackException e) {
                spec.commandLine().getErr().println("could not unmount a disk-full drill's filesystem: " + e.getMessage());
            }
            StackState.delete(workDir);
            try {
                java.nio.file.Files.deleteIfExists(workDir.resolve(org.brokerapp.regions.DeploymentOutputs.LOCAL_STACK_FILE));
            } catch (java.io.IOException e) {
                // stale addresses only; the next start overwrites the file
            }
            spec.commandLine().getOut().println("stack down");
            return 0;
        }
    }

    @Command(name = "cpu", usageHelpAutoWidth = true,
            description = "The CPU each server of a running stack (and each extra PID) uses over a while, from /proc (utime + stime), the part its JIT compiler threads used, and how long its other threads waited for a core.")
    static final class Cpu implements Callable<Integer> {
        @Mixin
        CliConventions.Help help;

        @Mixin
        Where where = new Where();

        @Spec
        CommandSpec spec;

        @Option(names = "--seconds", paramLabel = "N", description = "how long to measure (default ${DEFAULT-VALUE})")
        int seconds = 60;

        @Option(names = "--pid", paramLabel = "PID", description = "another process to measure too (repeatable)")
        List<Long> extraPids = new ArrayList<>();

        @Override
        public Integer call() {
            if (seconds < 1) {
                throw new ParameterException(spec.commandLine(), "--seconds must be at least 1, was " + seconds);
            }
            Path workDir = where.workDir.toAbsolutePath().normalize();
            StackState state = StackState.read(workDir)
                    .orElseThrow(() -> new StackException("no stack is running from " + workDir + " (start one with 'stack up')"));
            List<Long> pids = new ArrayList<>(state.serverPids());
            pids.addAll(extraPids);
            Map<Long, ProcessCpu.Kind> kinds = new LinkedHashMap<>();
            pids.forEach(pid -> kinds.put(pid, ProcessCpu.kindOf(pid)));
            var out = spec.commandLine().getOut();
            out.printf("measuring the CPU of %d processes for %d s (utime + stime from /proc)%n", pids.size(), seconds);
            long start = System.nanoTime();
            var before = ProcessCpu.read(pids, kinds);
            ServerProcess.sleep(Duration.ofSeconds(seconds));
            var after = ProcessCpu.read(pids, kinds);
            double elapsed = (System.nanoTime() - start) / 1e9;
            out.printf("%-8s %-10s %10s %12s %14s %10s %14s%n", "PID", "KIND", "CPU s", "% of a core", "JIT compiling", "waiting", "wait/dispatch");
            double total = 0;
            for (long pid : pids) {
                if (before.containsKey(pid) && after.containsKey(pid)) {
                    ProcessCpu.Usage usage = ProcessCpu.between(before.get(pid), after.get(pid));
                    total += seconds(usage.cpu());
                    printUsage(out, Long.toString(pid), kinds.get(pid).label(), usage, elapsed);
                } else {
                    out.printf("%-8d %-10s %10s %12s%n", pid, kinds.get(pid).label(), "gone", "-");
                }
            }
            ProcessCpu.perKind(before, after).forEach((kind, usage) -> printUsage(out, "all", kind.label(), usage, elapsed));
            out.printf("%-8s %-10s %10.2f %11.1f%%   over %.1f s%n", "all", "total", total, 100 * total / elapsed, elapsed);
            return 0;
        }

        private static void printUsage(PrintWriter out, String pid, String kind, ProcessCpu.Usage usage, double elapsed) {
            // waiting: threads waiting for a core at any moment, on average
            out.printf("%-8s %-10s %10.2f %11.1f%% %13.1f%% %10.2f %11.0f us%n", pid, kind, seconds(usage.cpu()), 100 * seconds(usage.cpu()) / elapsed,
                    100 * seconds(usage.jit()) / elapsed, seconds(usage.waits().waited()) / elapsed, usage.waits().perDispatch().toNanos() / 1e3);
        }

        private static double seconds(Duration d) {
            return d.toMillis() / 1000.0;
        }
    }

    @Command(name = "status", usageHelpAutoWidth = true,
            description = "Show every node as each DC's gossip sees it (UN = up, normal), and which regions are cut.")
    static final class Status implements Callable<Integer> {
        @Mixin
        CliConventions.Help help;

        @Mixin
        Where where = new Where();

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            StackSettings settings = runningSettings(where);
            StackLayout layout = StackLayout.of(settings);
            if (!settings.cassandra()) {
                spec.commandLine().getOut().println("Kafka only: " + settings.regions().names().stream().map(r -> r + " " + layout.kafkaIn(r).bootstrapServers()).toList());
                return 0;
            }
            spec.commandLine().getOut().printf("%-4s %-18s %-16s as seen by%n", "", "ADDRESS", "DC");
            for (String region : settings.regions().names()) {
                CassandraNode observer = layout.cassandraIn(region).get(0);
                for (NodeStatus node : ClusterProbe.viewFrom(observer)) {
                    spec.commandLine().getOut().printf("%-4s %-18s %-16s %s%n", node.code(), node.address(), node.datacenter(), observer.name());
                }
            }
            if (settings.wanEmulation()) {
                var cut = ToxiproxyWan.attach(settings.addresses(), settings.regions().names()).cutRegions();
                spec.commandLine().getOut().println(cut.isEmpty() ? "WAN: all regions connected" : "WAN: partitioned: " + cut);
            } else {
                spec.commandLine().getOut().println("WAN emulation is off");
            }
            return 0;
        }
    }

    @Command(name = "cut", usageHelpAutoWidth = true,
            description = "Partition REGION from the other regions (WAN emulation).")
    static final class Cut implements Callable<Integer> {
        @Mixin
        CliConventions.Help help;

        @Mixin
        Where where = new Where();

        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "REGION", description = "a region of the regions model, e.g. ap-southeast-2")
        String region;

        @Override
        public Integer call() {
            wan(where, "cut", region).cut(region);
            spec.commandLine().getOut().println(region + " is cut off: no traffic crosses between it and the other regions (heal with 'stack heal " + region + "')");
            return 0;
        }
    }

    @Command(name = "heal", usageHelpAutoWidth = true, description = "End the partition of REGION.")
    static final class Heal implements Callable<Integer> {
        @Mixin
        CliConventions.Help help;

        @Mixin
        Where where = new Where();

        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "REGION", description = "a region of the regions model, e.g. ap-southeast-2")
        String region;

        @Override
        public Integer call() {
            wan(where, "heal", region).heal(region);
            spec.commandLine().getOut().println(region + " is reconnected; gossip marks its nodes up within seconds ('stack status' shows it)");
            return 0;
        }
    }

    private static ToxiproxyWan wan(Where where, String command, String region) {
        StackSettings settings = runningSettings(where);
        settings.regions().region(region);
        if (!settings.wanEmulation()) {
            throw new StackException("cannot " + command + " " + region + ": the stack runs without WAN emulation");
        }
        return ToxiproxyWan.attach(settings.addresses(), settings.regions().names());
    }

    /** The settings a running stack was started with, so addresses and nodes match it. */
    private static StackSettings runningSettings(Where where) {
        Path workDir = where.workDir.toAbsolutePath().normalize();
        StackState state = StackState.read(workDir)
                .orElseThrow(() -> new StackException("no stack is running from " + workDir + " (start one with 'stack up')"));
        Up started = new Up();
        new CommandLine(started).parseArgs(state.settingsArgs().isBlank() ? new String[0] : state.settingsArgs().split(" "));
        return started.settings();
    }
}
