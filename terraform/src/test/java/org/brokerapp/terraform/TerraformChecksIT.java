package org.brokerapp.terraform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The static checks of terraform/, as the README and CI run them: each tool runs as a process
 * and must exit 0. A tool that is not installed fails the test with one line saying how to install
 * it (terraform/bin/install-tools, which .ci/run calls). What cannot run offline: `terraform
 * validate`/`plan` of the AWS modules (no registry serves hashicorp/aws here), see terraform/README.md.
 */
class TerraformChecksIT {

    static final Path TERRAFORM = Path.of("").toAbsolutePath(); // the module's base directory: terraform/
    static final Path PLAN_MODULE = TERRAFORM.resolve("modules/regions-plan");

    @Test
    void everyFileIsFormattedAsTerraformFmtWouldWriteIt() {
        Tool.Run run = Tool.require("terraform").run(TERRAFORM, "fmt", "-check", "-recursive", "-diff", "-no-color");

        assertThat(run.exitCode()).as(run.describe()).isZero();
    }

    @Test
    void thePlanModulePassesItsTerraformTests() {
        Tool terraform = Tool.require("terraform");
        Tool.Run init = terraform.run(PLAN_MODULE, "init", "-backend=false", "-input=false", "-no-color");
        assertThat(init.exitCode()).as(init.describe()).isZero();

        Tool.Run test = terraform.run(PLAN_MODULE, "test", "-no-color");

        assertThat(test.exitCode()).as(test.describe()).isZero();
        Matcher summary = Pattern.compile("Success! (\\d+) passed, 0 failed").matcher(test.output());
        assertThat(summary.find()).as(test.describe()).isTrue();
        // 3 regions, 1 region, overlapping CIDRs, a region without an exchange, and the rest
        assertThat(Integer.parseInt(summary.group(1))).as(test.describe()).isGreaterThanOrEqualTo(10);
        assertThat(test.output()).contains("run \"three_regions\"... pass", "run \"one_region\"... pass",
                "run \"overlapping_cidrs_are_refused\"... pass", "run \"a_region_without_an_exchange_is_refused\"... pass");
    }

    @Test
    void theCloudInitOfEveryServerRendersAndSaysWhatItMust() {
        Tool terraform = Tool.require("terraform");
        Path fixture = TERRAFORM.resolve("tests/cloud-init");
        Tool.Run init = terraform.run(fixture, "init", "-backend=false", "-input=false", "-no-color");
        assertThat(init.exitCode()).as(init.describe()).isZero();

        Tool.Run test = terraform.run(fixture, "test", "-no-color");

        assertThat(test.exitCode()).as(test.describe()).isZero();
        assertThat(test.output()).as(test.describe()).contains("run \"cassandra_is_a_tls_node_of_its_dc_with_seeds_in_every_region\"... pass");
    }

    @Test
    void theProviderFreeExampleValidatesAndPlansTheRepositoryModel() {
        Tool terraform = Tool.require("terraform");
        Path example = TERRAFORM.resolve("examples/plan");
        Tool.Run init = terraform.run(example, "init", "-backend=false", "-input=false", "-no-color");
        assertThat(init.exitCode()).as(init.describe()).isZero();

        Tool.Run validate = terraform.run(example, "validate", "-no-color");
        assertThat(validate.exitCode()).as(validate.describe()).isZero();
        Tool.Run plan = terraform.run(example, "plan", "-input=false", "-no-color", "-lock=false", "-refresh=false", "-state=/dev/null");
        assertThat(plan.exitCode()).as(plan.describe()).isZero();
        assertThat(plan.output()).contains("keyspace_replication", "'us-east-1': 3", "monthly_cost_total", "kubernetes");
    }

    @Test
    void tflintFindsNothingWithEveryCoreRuleOn() {
        Tool.Run run = Tool.require("tflint").run(TERRAFORM, "--recursive", "--config", TERRAFORM.resolve(".tflint.hcl").toString(), "--format", "compact", "--no-color");

        assertThat(run.exitCode()).as(run.describe()).isZero();
    }

    @Test
    void checkovFailsNoCheckThatIsNotSkippedInlineWithAReason() {
        // without a Prisma Cloud key checkov reports no severities, so this is stricter than "no HIGH":
        // every failed check counts; a deliberate exception is a #checkov:skip=ID:reason beside the resource
        Tool.Run run = Tool.require("checkov").run(TERRAFORM, "--directory", ".", "--framework", "terraform", "--skip-download",
                "--compact", "--quiet");

        assertThat(run.exitCode()).as(run.describe()).isZero();
        assertThat(run.output()).as(run.describe()).doesNotContain("FAILED for resource");
    }

    @Test
    void aMissingToolFailsWithOneLineSayingHowToInstallIt() {
        assertThatThrownBy(() -> Tool.require("no-such-tool-" + ProcessHandle.current().pid()))
                .isInstanceOf(AssertionError.class)
                .hasMessageEndingWith("not found in ~/.local/bin or on the PATH: run terraform/bin/install-tools")
                .message().doesNotContain("\n");
    }
}
