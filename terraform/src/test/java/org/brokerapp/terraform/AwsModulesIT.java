package org.brokerapp.terraform;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * What the AWS modules must hold before a first apply can work, read from the files (no provider is
 * served here, so nothing is planned): each test names the defect that made the apply fail or
 * the deployment unusable.
 */
class AwsModulesIT {

    static final Path TERRAFORM = TerraformChecksIT.TERRAFORM;
    static final List<JsonNode> REGION = Hcl.dir(TERRAFORM.resolve("modules/region"));
    static final List<JsonNode> ROOT = Hcl.dir(TERRAFORM.resolve("examples/multi-region"));
    static final Pattern EC2_DESCRIPTION = Pattern.compile("[a-zA-Z0-9 ._\\-:/()#,@\\[\\]+=&;{}!$*]*");
    static final Pattern INTERPOLATION = Pattern.compile("\\$\\{[^}]*}");

    /** "other regions' app subnets": EC2 refuses a security group description with an apostrophe. */
    @Test
    void everySecurityGroupAndRuleDescriptionUsesOnlyWhatEc2Allows() {
        List<String> descriptions = new ArrayList<>();
        for (List<JsonNode> docs : List.of(REGION, ROOT, Hcl.dir(TERRAFORM.resolve("modules/peering")))) {
            for (String type : List.of("aws_security_group", "aws_vpc_security_group_ingress_rule", "aws_vpc_security_group_egress_rule",
                    "aws_default_security_group")) {
                Hcl.blocks(docs, "resource", type).forEach(b -> descriptions.add(b.path("description").asString("")));
            }
            // the rules' descriptions come from the "what" of the rule tables
            for (String table : List.of("group_ingress", "egress", "cidr_ingress")) {
                collect(Hcl.local(docs, table), "what", descriptions);
            }
        }
        assertThat(descriptions).hasSizeGreaterThan(30);
        for (String description : descriptions) {
            String literal = INTERPOLATION.matcher(description).replaceAll("x");
            assertThat(literal).as("security group description").matches(EC2_DESCRIPTION).hasSizeLessThanOrEqualTo(255);
        }
    }

    /** Encrypted node volumes with a key the Auto Scaling service-linked role may not use: no node ever launched. */
    @Test
    void theRegionKeyAdmitsTheAutoScalingServiceLinkedRole() {
        JsonNode policy = Hcl.block(REGION, "data", "aws_iam_policy_document", "kms");
        List<String> autoScalingActions = new ArrayList<>();
        boolean grants = false;
        for (JsonNode statement : policy.path("statement")) {
            for (JsonNode principal : statement.path("principals")) {
                for (JsonNode id : principal.path("identifiers")) {
                    if (id.asString().endsWith(":role/aws-service-role/autoscaling.amazonaws.com/AWSServiceRoleForAutoScaling")) {
                        statement.path("actions").forEach(a -> autoScalingActions.add(a.asString()));
                        grants |= statement.toString().contains("kms:GrantIsForAWSResource");
                    }
                }
            }
        }
        assertThat(autoScalingActions).contains("kms:Encrypt", "kms:Decrypt", "kms:ReEncrypt*", "kms:GenerateDataKey*", "kms:DescribeKey",
                "kms:CreateGrant");
        assertThat(grants).as("CreateGrant only for AWS resources").isTrue();
        assertThat(Hcl.block(REGION, "resource", "aws_launch_template", "eks_node").toString()).contains("aws_kms_key.this.arn");
    }

    /** EKS 1.33 is in extended support (+$0.50 an hour per cluster) since 29 July 2026. */
    @Test
    void theKubernetesVersionIsInStandardSupportAndTheControlPlaneTestRunsIt() throws IOException {
        JsonNode versions = Hcl.named(REGION, "variable", "versions");
        String type = versions.path("type").asString();
        String version = Pattern.compile("kubernetes\\s*=\\s*optional\\(string,\\s*\"([0-9.]+)\"\\)").matcher(type).results()
                .map(m -> m.group(1)).findFirst().orElse("none");
        assertThat(version).as("default EKS version (standard support: 1.35 until 27 Mar 2027, 1.36)").isIn("1.35", "1.36");
        assertThat(Hcl.block(REGION, "resource", "aws_eks_cluster", "this").path("upgrade_policy").get(0).path("support_type").asString())
                .isEqualTo("STANDARD");
        String tools = Files.readString(TERRAFORM.resolveSibling("k8s/bin/install-tools"));
        assertThat(tools).as("the control-plane test runs the version EKS runs").contains("KUBERNETES_VERSION=v" + version + ".");
    }

    /** One instance profile let the Elasticsearch host read the Kafka admin password and every Cassandra key. */
    @Test
    void eachServerKindHasItsOwnRoleThatReadsOnlyItsOwnParameters() {
        for (String kind : List.of("cassandra", "kafka", "elasticsearch")) {
            assertThat(Hcl.block(REGION, "resource", "aws_instance", kind).path("iam_instance_profile").asString()).as(kind)
                    .contains("[\"" + kind + "\"]");
        }
        JsonNode policy = Hcl.block(REGION, "data", "aws_iam_policy_document", "server_secrets");
        assertThat(policy.path("for_each").asString()).contains("server_kinds");
        for (JsonNode statement : policy.path("statement")) {
            for (JsonNode resource : statement.path("resources")) {
                assertThat(resource.asString()).as("no wildcard beyond the kind's own path").doesNotEndWith(":parameter/*")
                        .satisfiesAnyOf(r -> assertThat(r).endsWith("/${each.key}/*"), r -> assertThat(r).contains("aws_kms_key"));
            }
        }
    }

    /** Data volumes died with their instance (ebs_block_device): a replaced node lost its data. */
    @Test
    void dataVolumesOutliveTheirInstancesAndAreSnapshottedDaily() {
        for (String kind : List.of("cassandra", "kafka", "elasticsearch")) {
            JsonNode instance = Hcl.block(REGION, "resource", "aws_instance", kind);
            assertThat(instance.has("ebs_block_device")).as(kind + " has no volume of its own lifetime").isFalse();
        }
        assertThat(Hcl.block(REGION, "resource", "aws_ebs_volume", "data").path("tags").asString()).contains("Backup = \"daily\"");
        assertThat(Hcl.block(REGION, "resource", "aws_volume_attachment", "data").path("stop_instance_before_detaching").asBoolean()).isTrue();
        JsonNode dlm = Hcl.block(REGION, "resource", "aws_dlm_lifecycle_policy", "daily").path("policy_details").get(0);
        assertThat(dlm.path("target_tags").path("Backup").asString()).isEqualTo("daily");
        assertThat(dlm.path("schedule").get(0).path("retain_rule").get(0).path("count").asInt()).isGreaterThanOrEqualTo(7);
    }

    /** Node certificates expired after a year with nothing to renew them. */
    @Test
    void serverCertificatesRenewBeforeTheyExpireAndTheServersReloadThem() throws IOException {
        assertThat(Hcl.block(REGION, "resource", "tls_locally_signed_cert", "server").path("early_renewal_hours").asString()).isNotBlank();
        for (String kind : List.of("cassandra", "kafka", "elasticsearch")) {
            assertThat(template(kind)).as(kind).contains("tls-refresh.timer");
        }
        assertThat(template("cassandra")).contains("nodetool reloadssl");
    }

    /** All Cassandra nodes bootstrapped at once, and logins were made by hand after the apply. */
    @Test
    void cassandraNodesJoinOneAtATimeAndTheDeploymentCreatesItsRoles() throws IOException {
        String cassandra = template("cassandra");
        assertThat(cassandra).contains("bootstrap_after").contains("/9042").contains("Restart=on-failure");
        assertThat(cassandra).contains("CREATE ROLE").contains("GRANT CREATE ON ALL KEYSPACES TO broker").contains("nodetool repair");
        assertThat(Hcl.block(REGION, "resource", "aws_instance", "cassandra").path("user_data").asString()).contains("bootstrap_after");
    }

    /** Names and CIDRs followed a region's place in infra/regions.yaml: removing one replaced the others. */
    @Test
    void noNameFollowsARegionsPlaceInTheFile() throws IOException {
        for (Path file : List.of(TERRAFORM.resolve("modules/region/main.tf"), TERRAFORM.resolve("modules/region/outputs.tf"))) {
            assertThat(Files.readString(file)).as(file.toString()).doesNotContain("plan.index");
        }
        assertThat(Files.readString(TERRAFORM.resolve("modules/regions-plan/main.tf"))).doesNotContain("r.index)");
    }

    /** The load balancers forwarded to a NodePort the Kubernetes Service did not open. */
    @Test
    void theLoadBalancersTargetTheNodePortThePlanGivesBothTrees() {
        for (String name : List.of("public", "internal")) {
            assertThat(Hcl.block(REGION, "resource", "aws_lb_target_group", name).path("port").asString()).isEqualTo("${var.broker_node_port}");
        }
        assertThat(Hcl.named(ROOT, "module", "region").path("broker_node_port").asString()).contains("module.plan.kubernetes");
        JsonNode ingress = Hcl.local(REGION, "group_ingress");
        assertThat(ingress.path("nodeport_public").path("port").asString()).isEqualTo("${var.broker_node_port}");
        assertThat(ingress.path("nodeport_internal").path("port").asString()).isEqualTo("${var.broker_node_port}");
    }

    /** The brokers on the nodes reach each data server on the port the plan gives them. */
    @Test
    void theDataTierAdmitsTheNodesOnThePortsTheBrokersUse() {
        JsonNode ingress = Hcl.local(REGION, "group_ingress");
        List<String> fromNodes = new ArrayList<>();
        ingress.properties().forEach(e -> {
            if (e.getValue().path("from").asString().equals("eks_nodes")) {
                fromNodes.add(e.getValue().path("sg").asString() + ":" + e.getValue().path("port").asInt());
            }
        });
        assertThat(fromNodes).contains("cassandra:9042", "kafka:9092", "elasticsearch:9200");
        JsonNode egress = Hcl.local(REGION, "egress");
        List<Integer> nodesOut = new ArrayList<>();
        egress.properties().forEach(e -> {
            if (e.getValue().path("sg").asString().equals("eks_nodes")) {
                nodesOut.add(e.getValue().path("port").asInt());
            }
        });
        assertThat(nodesOut).contains(9042, 9092, 9200, 8080);
    }

    /** Peers were called at broker.<region>.brokerapp.internal, a zone nothing created. */
    @Test
    void thePeersNamesAreRecordsOfAPrivateZoneEveryVpcResolves() {
        List<JsonNode> zones = Hcl.blocks(ROOT, "resource", "aws_route53_zone");
        assertThat(zones).as("a Route 53 zone in the root").hasSize(1);
        JsonNode zone = zones.get(0);
        assertThat(zone.path("name").asString()).contains("module.plan.internal_zone");
        assertThat(zone.path("dynamic").toString()).contains("vpc");
        assertThat(Hcl.blocks(ROOT, "resource", "aws_route53_record").toString()).contains("peer_dns_name").contains("internal_lb");
    }

    /** No state backend: the node keys and the CA were in a local file. */
    @Test
    void theStateLivesInALockedEncryptedBucket() throws IOException {
        String versions = Files.readString(TERRAFORM.resolve("examples/multi-region/versions.tf"));
        assertThat(versions).contains("backend \"s3\"").containsPattern("required_version\\s*=\\s*\">= 1\\.1[1-9]");
        assertThat(Files.readString(TERRAFORM.resolve("examples/multi-region/backend.hcl.example"))).containsPattern("use_lockfile\\s*=\\s*true");
        List<JsonNode> backend = Hcl.dir(TERRAFORM.resolve("modules/state-backend"));
        assertThat(Hcl.blocks(backend, "resource", "aws_s3_bucket_versioning").toString()).contains("Enabled");
        assertThat(Hcl.blocks(backend, "resource", "aws_s3_bucket_public_access_block").toString()).contains("true");
    }

    /** Images came from docker.io by tag. */
    @Test
    void imagesComeFromTheDeploymentsRegistryByDigest() {
        JsonNode digests = Hcl.named(ROOT, "variable", "image_digests");
        assertThat(digests.toString()).contains("sha256:[0-9a-f]{64}");
        assertThat(Hcl.blocks(ROOT, "resource", "aws_ecr_repository").toString()).contains("IMMUTABLE");
    }

    static String template(String kind) throws IOException {
        return Files.readString(TERRAFORM.resolve("modules/region/templates/" + kind + ".cloud-init.yaml.tftpl"));
    }

    static void collect(JsonNode node, String key, List<String> into) {
        if (node.isObject()) {
            node.properties().forEach(e -> {
                if (e.getKey().equals(key) && e.getValue().isString()) {
                    into.add(e.getValue().asString());
                } else {
                    collect(e.getValue(), key, into);
                }
            });
        } else if (node.isArray()) {
            node.forEach(n -> collect(n, key, into));
        }
    }
}
