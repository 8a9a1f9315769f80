package org.brokerapp.loadtest.cli;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

import org.brokerapp.infra.host.Progress;
import org.brokerapp.infra.host.StackException;
import org.brokerapp.infra.servers.KafkaAccess;
import org.brokerapp.infra.servers.KafkaCredentials;
import org.brokerapp.loadtest.LoadRun;
import org.brokerapp.loadtest.amplification.WriteAmplificationProbe;
import org.brokerapp.loadtest.deployment.EndpointsTarget;
import org.brokerapp.loadtest.deployment.LocalTarget;
import org.brokerapp.loadtest.deployment.Target;
import org.brokerapp.loadtest.drill.Drill;
import org.brokerapp.loadtest.drill.DrillProbe;
import org.brokerapp.loadtest.measure.CompileQueueProbe;
import org.brokerapp.loadtest.measure.ProcessCpuProbe;
import org.brokerapp.loadtest.probe.WindowProbe;
import org.brokerapp.loadtest.report.MarkdownReport;
import org.brokerapp.loadtest.report.ResultsDirectory;
import org.brokerapp.loadtest.report.RunResult;
import org.brokerapp.regions.BuildVersion;

/**
 * {@code loadtest/bin/loadtest}: parses the command line, opens the target (starting the local
 * stack and brokers unless endpoints are given), runs, prints the summary and writes the results.
 * Exit 0 when the run's correctness check passed, 1 when it failed or the run could not be done,
 * 2 for a bad command line. Whatever it started stops on exit, Ctrl-C included (the stack's and the
 * brokers' shutdown hooks).
 */
public final class LoadTestCli {

    private LoadTestCli() {
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /**
     * Write amplification needs each Cassandra node's JMX, CPU per process kind the PIDs of every process: the local
     * stack has both, an existing deployment is not asked.
     */
    private static List<WindowProbe> probes(Target target, RunPlan plan, Progress progress) {
        if (target instanceof LocalTarget local) {
            List<WindowProbe> probes = new java.util.ArrayList<>(localMeasures(local));
            plan.drill().ifPresent(drill -> probes.add(new DrillProbe(drill, local, progress)));
            return probes;
        }
        return List.of();
    }

    /** What a run against the local stack measures besides latency: CPU per process kind, Cassandra's work per order, the JIT's queues. */
    public static List<WindowProbe> localMeasures(LocalTarget local) {
        return List.of(new ProcessCpuProbe(local::processKinds), WriteAmplificationProbe.of(local.stack()), new CompileQueueProbe(local::processKinds));
    }

    static int run(String[] args) {
        if (CliOptions.wantsHelp(args)) {
            System.out.print(CliUsage.TEXT);
            return 0;
        }
        if (CliOptions.wantsVersion(args)) {
            System.out.println(BuildVersion.line("loadtest"));
            return 0;
        }
        RunPlan plan;
        try {
            plan = CliOptions.parse(args);
        } catch (UsageException e) {
            System.err.println("loadtest: " + e.getMessage() + " (see 'loadtest --help')");
            return 2;
        }
        Progress progress = new Progress(System.out);
        String command = "loadtest/bin/loadtest " + String.join(" ", args);
        try (Target target = open(plan, progress)) {
            progress.step("target: " + target.describe());
            watchIt(target, progress);
            LoadRun.Settings settings = new LoadRun.Settings("Load test, preset " + plan.preset().key(), plan.preset().key(), command.trim(),
                    plan.progressEvery(), plan.openingCash(), plan.floor(), plan.check(), plan.sla(), probes(target, plan, progress), plan.idleBaseline(),
                    Optional.of(plan.resultsDir()));
            RunResult result = LoadRun.execute(target, plan.spec(), settings, progress);
            ResultsDirectory.write(plan.resultsDir(), result);
            System.out.println();
            System.out.print(MarkdownReport.render(result));
            System.out.println("results: " + plan.resultsDir().toAbsolutePath() + " (summary.md, results.json, report.html, and an HdrHistogram log per measure, <measure>.hlog)");
            return result.check().passed() || !plan.check() ? 0 : 1;
        } catch (IllegalArgumentException e) {
            System.err.println("loadtest: " + e.getMessage());
            return 2;
        } catch (StackException | IllegalStateException | IOException e) {
            System.err.println("loadtest: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            System.err.println("loadtest: interrupted");
            return 1;
        }
    }

    /** Where to watch the run live: the brokers' ops page and the stack's Prometheus, reachable until the run ends. */
    private static void watchIt(Target target, Progress progress) {
        if (target instanceof LocalTarget local) {
            local.stack().prometheusUrl().ifPresentOrElse(prometheus -> {
                progress.step("WATCH IT LIVE: ops page " + target.brokerUrls().values().iterator().next() + "/ops (every region; any broker serves it)");
                progress.step("WATCH IT LIVE: Prometheus " + prometheus + " (alerts: " + prometheus + "/alerts); both stay up until the run ends");
            }, () -> progress.step("no live ops page: the stack runs without Prometheus (install it with infra/bin/install-ops-tools)"));
        }
    }

    static Target open(RunPlan plan, Progress progress) {
        if (plan.target() instanceof TargetPlan.Local local) {
            return LocalTarget.startStack(local.instance(), local.workDir(), local.regionsFile(), local.nodesPerDc(), local.brokerJar(), plan.spec().customers(),
                    local.brokerArgs(), local.tls(), plan.drill(), local.brokersPerRegion(), progress);
        }
        TargetPlan.Endpoints e = (TargetPlan.Endpoints) plan.target();
        return new EndpointsTarget(plan.regions(), e.brokers(), e.kafka(), e.cql(),
                e.kafkaCredentials().map(dir -> KafkaCredentials.read(dir, KafkaAccess.FEED)), e.kafkaTrust());
    }
}
