package org.brokerapp.loadtest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.brokerapp.infra.host.Progress;
import org.brokerapp.infra.junit.LocalStackTest;
import org.brokerapp.infra.stack.LocalStack;
import org.brokerapp.loadtest.LoadRun;
import org.brokerapp.loadtest.deployment.EndpointsTarget;
import org.brokerapp.loadtest.deployment.LocalTarget;
import org.brokerapp.loadtest.deployment.Target;
import org.brokerapp.loadtest.report.MeasureResult;
import org.brokerapp.loadtest.report.RunResult;
import org.brokerapp.regions.DeploymentOutputs;
import org.junit.jupiter.api.Test;

/**
 * The path a Terraform deployment is loaded through, exercised here: the real local stack writes
 * {@code terraform-outputs.json} (the shape of {@code terraform output -json}) when it is up, and
 * the harness, given only that file ({@code --target-terraform}), runs seconds of load against it
 * (brokers started beside the stack, as k8s would run them on AWS) and passes its ledger check.
 */
@LocalStackTest
class TerraformTargetStackIT {

    @Test
    void theHarnessLoadsTheLocalStackThroughItsTerraformOutputFile(LocalStack stack) throws Exception {
        Path file = stack.layout().settings().workDir().resolve(DeploymentOutputs.LOCAL_STACK_FILE);
        assertThat(file).exists();
        assertThat(DeploymentOutputs.read(file)).isEqualTo(stack.deploymentOutputs());

        RunPlan plan = CliOptions.parse(new String[] {"--preset", "smoke", "--target-terraform", file.toString(),
                "--ramp-up", "1", "--warm-up", "3", "--duration", "8", "--drain", "3", "--results", "target/terraform-target-results"});
        assertThat(plan.target()).isInstanceOf(TargetPlan.Endpoints.class);

        Progress progress = new Progress(System.out);
        Path jar = Path.of("../broker-service/target/broker-service-0.1.0-SNAPSHOT.jar");
        RunResult result;
        try (LocalTarget brokers = LocalTarget.attach(stack, Path.of("target/terraform-target-logs"), jar, plan.spec().customers(), List.of(), progress);
             Target target = LoadTestCli.open(plan, progress)) {
            assertThat(target).isInstanceOf(EndpointsTarget.class);
            assertThat(target.brokerUrls()).isEqualTo(brokers.brokerUrls());
            result = LoadRun.execute(target, plan.spec(), LoadRun.Settings.defaults("--target-terraform against the local stack"), progress);
        }

        assertThat(result.window().throughput().ordersAccepted()).isPositive();
        assertThat(result.window().measures()).extracting(MeasureResult::name)
                .contains("floor LOCAL_QUORUM write @us-east-1", "floor LOCAL_QUORUM write @ap-southeast-2");
        assertThat(result.window().measures()).filteredOn(m -> m.name().startsWith("floor"))
                .allSatisfy(m -> assertThat(m.latency().count()).as(m.name()).isPositive());
        assertThat(result.check().problems()).isEmpty();
        assertThat(result.check().passed()).isTrue();
    }
}
