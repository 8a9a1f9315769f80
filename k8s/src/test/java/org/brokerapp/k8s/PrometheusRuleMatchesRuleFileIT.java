package org.brokerapp.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The PrometheusRule of the monitoring component carries exactly the groups of the rule file next to
 * it (Prometheus's own format, which promtool checks), so the two can never drift apart.
 */
class PrometheusRuleMatchesRuleFileIT {

    static final Path COMPONENT = K8sTools.K8S.resolve("components/monitoring");

    @Test
    void sameGroupsAsTheRuleFile() {
        JsonNode ruleFile = K8sTools.objects(COMPONENT.resolve("broker-alerts.rules.yaml")).get(0);
        JsonNode prometheusRule = K8sTools.one(K8sTools.objects(COMPONENT.resolve("prometheusrule.yaml")), "PrometheusRule", "broker-alerts");
        assertThat(ruleFile.path("groups").size()).isPositive();
        assertThat(prometheusRule.path("spec").path("groups"))
                .as("prometheusrule.yaml spec.groups must equal broker-alerts.rules.yaml groups; regenerate it from the rule file")
                .isEqualTo(ruleFile.path("groups"));
    }
}
