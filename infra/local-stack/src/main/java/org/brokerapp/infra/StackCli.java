package org.brokerapp.infra;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;


/**
 * {@code infra/bin/stack}: brings the local stack up (in the foreground until Ctrl-C, or
 * {@code --detach}ed), reports its status, cuts and heals regions, and brings it down. Every
 * failure is one line on stderr and a non-zero exit.
 */
public final class StackCli {

    static final String USAGE = """
            usage: stack <command> [options]
              up [--clean] [--detach] [--nodes-per-dc N] [--no-wan] [--no-metrics] [--kafka-only]
                                                                    start the stack, print what runs where, stay until Ctrl-C
              down                                                  stop a stack started from this work directory
              status                                                show every node as the cluster sees it, and which regions are cut
              cut REGION                                            partition REGION from the other regions (WAN emulation)
              heal REGION                                           end the partition
            options for every command:
              --work-dir DIR    where data, logs and configuration live (default .stack)
              --instance N      loopback slice 127.2N.x.x; tests use 1 (default 0)
              --regions FILE    the regions model (default infra/regions.yaml)
            """;

    private StackCli() {
    }

    public static void main(String[] args) {
        try {
            System.exit(run(args));
        } catch (StackException | IllegalArgumentException e) {
            System.err.println("stack: " + e.getMessage());
            System.exit(1);
        }
    }

    static int run(String[] args) {
        if (args.length == 0 || List.of("-h", "--help", "help").contains(args[0])) {
            System.out.print(USAGE);
            return args.length == 0 ? 2 : 0;
        }
        Options options = Options.parse(Arrays.copyOfRange(args, 1, args.length));
        return switch (args[0]) {
            case "up" -> up(options);
            case "down" -> down(options);
            case "status" -> status(options);
            case "cut", "heal" -> cutOrHeal(args[0], options);
            default -> throw new IllegalArgumentException("unknown command '" + args[0] + "' (try: up, down, status, cut, heal)");
        };
    }

    private static int up(Options options) {
        Progress progress = new Progress(System.out);
        LocalStack stack = LocalStack.start(options.settings(), options.clean, options.layoutArgs(), progress);
        System.out.print(stack.describe());
        if (options.detach) {
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

    private static int down(Options options) {
        Path workDir = options.settings().workDir();
        Optional<StackState> state = StackState.read(workDir);
        if (state.isEmpty()) {
            System.out.println("no stack is running from " + workDir);
            return 0;
        }
        long launcher = state.get().launcherPid();
        if (launcher > 0 && launcher != ProcessHandle.current().pid()) {
            ProcessHandle.of(launcher).ifPresent(p -> {
                System.out.println("asking the launcher (pid " + launcher + ") to stop the stack");
                p.destroy();
                p.onExit().orTimeout(90, TimeUnit.SECONDS).exceptionally(t -> p).join();
            });
        }
        List<ProcessHandle> servers = state.get().serverPids().stream()
                .flatMap(pid -> ProcessHandle.of(pid).stream()).filter(ProcessHandle::isAlive).toList();
        servers.forEach(p -> {
            System.out.println("stopping pid " + p.pid() + " " + p.info().command().orElse(""));
            p.destroy();
        });
        // all at once: each Cassandra node takes several seconds to drain
        long deadline = System.nanoTime() + LocalStack.STOP_GRACE.toNanos();
        for (ProcessHandle p : servers) {
            long left = Math.max(0, deadline - System.nanoTime());
            if (p.onExit().orTimeout(left, TimeUnit.NANOSECONDS).exceptionally(t -> p).join().isAlive()) {
                p.destroyForcibly();
            }
        }
        StackState.delete(workDir);
        System.out.println("stack down");
        return 0;
    }

    private static int status(Options options) {
        StackSettings settings = runningSettings(options);
        StackLayout layout = StackLayout.of(settings);
        if (!settings.cassandra()) {
            System.out.println("Kafka only: " + settings.regions().names().stream().map(r -> r + " " + layout.kafkaIn(r).bootstrapServers()).toList());
            return 0;
        }
        System.out.printf("%-4s %-18s %-16s as seen by%n", "", "ADDRESS", "DC");
        for (String region : settings.regions().names()) {
            CassandraNode observer = layout.cassandraIn(region).get(0);
            for (NodeStatus node : ClusterProbe.viewFrom(observer)) {
                System.out.printf("%-4s %-18s %-16s %s%n", node.code(), node.address(), node.datacenter(), observer.name());
            }
        }
        if (settings.wanEmulation()) {
            var cut = ToxiproxyWan.attach(settings.addresses(), settings.regions().names()).cutRegions();
            System.out.println(cut.isEmpty() ? "WAN: all regions connected" : "WAN: partitioned: " + cut);
        } else {
            System.out.println("WAN emulation is off");
        }
        return 0;
    }

    private static int cutOrHeal(String command, Options options) {
        if (options.positional.size() != 1) {
            throw new IllegalArgumentException(command + " needs one region, e.g. 'stack " + command + " ap-southeast-2'");
        }
        String region = options.positional.get(0);
        StackSettings settings = runningSettings(options);
        settings.regions().region(region);
        if (!settings.wanEmulation()) {
            throw new StackException("cannot " + command + " " + region + ": the stack runs without WAN emulation");
        }
        ToxiproxyWan wan = ToxiproxyWan.attach(settings.addresses(), settings.regions().names());
        if (command.equals("cut")) {
            wan.cut(region);
            System.out.println(region + " is cut off: no traffic crosses between it and the other regions (heal with 'stack heal " + region + "')");
        } else {
            wan.heal(region);
            System.out.println(region + " is reconnected; gossip marks its nodes up within seconds ('stack status' shows it)");
        }
        return 0;
    }

    /** The settings a running stack was started with, so addresses and nodes match it. */
    private static StackSettings runningSettings(Options options) {
        Path workDir = options.settings().workDir();
        StackState state = StackState.read(workDir)
                .orElseThrow(() -> new StackException("no stack is running from " + workDir + " (start one with 'stack up')"));
        Options started = Options.parse(state.settingsArgs().isBlank() ? new String[0] : state.settingsArgs().split(" "));
        return started.settings();
    }

    /** Command-line options; the ones that shape the layout are saved with the running stack. */
    static final class Options {
        Path workDir = Path.of(System.getProperty("stack.work-dir", ".stack"));
        int instance;
        OptionalInt nodesPerDc = OptionalInt.empty();
        Optional<Path> regionsFile = Optional.empty();
        boolean wan = true;
        boolean metrics = true;
        boolean kafkaOnly;
        boolean clean;
        boolean detach;
        final List<String> positional = new ArrayList<>();

        static Options parse(String[] args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--clean" -> o.clean = true;
                    case "--detach" -> o.detach = true;
                    case "--no-wan" -> o.wan = false;
                    case "--no-metrics" -> o.metrics = false;
                    case "--kafka-only" -> o.kafkaOnly = true;
                    case "--work-dir" -> o.workDir = Path.of(value(args, ++i, "--work-dir"));
                    case "--instance" -> o.instance = integer(args, ++i, "--instance");
                    case "--nodes-per-dc" -> o.nodesPerDc = OptionalInt.of(integer(args, ++i, "--nodes-per-dc"));
                    case "--regions" -> o.regionsFile = Optional.of(Path.of(value(args, ++i, "--regions")));
                    default -> {
                        if (args[i].startsWith("--")) {
                            throw new IllegalArgumentException("unknown option " + args[i]);
                        }
                        o.positional.add(args[i]);
                    }
                }
            }
            return o;
        }

        StackSettings settings() {
            StackSettings settings = StackSettings.defaults(workDir, instance).withRegions(regionsFile).withNodesPerDc(nodesPerDc).withWanEmulation(wan)
                    .withMetrics(metrics);
            return kafkaOnly ? settings.kafkaOnly() : settings;
        }

        String layoutArgs() {
            List<String> args = new ArrayList<>(List.of("--work-dir", workDir.toAbsolutePath().toString(), "--instance", Integer.toString(instance)));
            nodesPerDc.ifPresent(n -> args.addAll(List.of("--nodes-per-dc", Integer.toString(n))));
            regionsFile.ifPresent(f -> args.addAll(List.of("--regions", f.toAbsolutePath().toString())));
            if (!wan) {
                args.add("--no-wan");
            }
            if (!metrics) {
                args.add("--no-metrics");
            }
            if (kafkaOnly) {
                args.add("--kafka-only");
            }
            return String.join(" ", args);
        }

        private static String value(String[] args, int i, String option) {
            if (i >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return args[i];
        }

        private static int integer(String[] args, int i, String option) {
            String value = value(args, i, option);
            try {
                return Integer.parseInt(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " needs a whole number, was '" + value + "'");
            }
        }
    }
}
