package org.brokerapp.infra;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import java.nio.file.Path;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/**
 * The local stack's packages, each using only those below it:
 *
 * <pre>
 *   cli, junit      the command line and the test fixture: who asks for a stack
 *   containers      the same stack in containers
 *   stack           the stack on this machine: layout, start order, readiness, faults
 *   servers         one Cassandra node, Kafka broker or Elasticsearch node, and its logins
 *   wan, tls        the emulated WAN between regions; the stack's certificates
 *   host            processes, JVMs, addresses and files of this machine
 * </pre>
 */
class LayoutTests {

    private static final JavaClasses MAIN = new ClassFileImporter().importPath(Path.of("target/classes"));

    @Test
    void noPackagesFormACycle() {
        slices().matching("org.brokerapp.infra.(*)..").should().beFreeOfCycles().check(MAIN);
    }

    @Test
    void eachPackageUsesOnlyThoseBelowIt() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("cli").definedBy("org.brokerapp.infra.cli..")
                .layer("junit").definedBy("org.brokerapp.infra.junit..")
                .layer("containers").definedBy("org.brokerapp.infra.containers..")
                .layer("stack").definedBy("org.brokerapp.infra.stack..")
                .layer("servers").definedBy("org.brokerapp.infra.servers..")
                .layer("wan").definedBy("org.brokerapp.infra.wan..")
                .layer("tls").definedBy("org.brokerapp.infra.tls..")
                .layer("host").definedBy("org.brokerapp.infra.host..")
                .whereLayer("cli").mayNotBeAccessedByAnyLayer()
                .whereLayer("junit").mayNotBeAccessedByAnyLayer()
                .whereLayer("containers").mayOnlyBeAccessedByLayers("junit")
                .whereLayer("stack").mayOnlyBeAccessedByLayers("cli", "junit", "containers")
                .whereLayer("servers").mayOnlyBeAccessedByLayers("cli", "junit", "containers", "stack")
                .whereLayer("wan").mayOnlyBeAccessedByLayers("cli", "stack")
                .whereLayer("tls").mayOnlyBeAccessedByLayers("cli", "junit", "containers", "stack", "servers")
                .check(MAIN);
    }
}
