package org.brokerapp.infra.elasticsearch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import java.nio.file.Path;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/**
 * The module's layout. The build packs it by package: the launcher goes on the server's class path, each
 * plugin into its own module directory, loaded by a class loader of its own. So no package may use another.
 */
class LayoutTests {

    private static final JavaClasses MAIN = new ClassFileImporter().importPath(Path.of("target/classes"));

    @Test
    void theLauncherUsesNoPlugin() {
        noClasses().that().resideInAPackage("org.brokerapp.infra.elasticsearch")
                .should().dependOnClassesThat().resideInAnyPackage("org.brokerapp.infra.elasticsearch.*..")
                .check(MAIN);
    }

    @Test
    void thePluginsUseNeitherEachOtherNorTheLauncher() {
        noClasses().that().resideInAPackage("org.brokerapp.infra.elasticsearch.login..")
                .should().dependOnClassesThat().resideInAnyPackage("org.brokerapp.infra.elasticsearch",
                        "org.brokerapp.infra.elasticsearch.rootinfo..")
                .check(MAIN);
        noClasses().that().resideInAPackage("org.brokerapp.infra.elasticsearch.rootinfo..")
                .should().dependOnClassesThat().resideInAnyPackage("org.brokerapp.infra.elasticsearch",
                        "org.brokerapp.infra.elasticsearch.login..")
                .check(MAIN);
    }
}
