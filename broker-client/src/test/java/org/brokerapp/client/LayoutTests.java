package org.brokerapp.client;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/** The client's layout: no package cycle, and it talks to the brokers over HTTP alone, knowing none of their code. */
class LayoutTests {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .importPaths(Stream.of("target/classes", "target/test-classes").map(Path::of).filter(Files::isDirectory).toList());

    private static final JavaClasses MAIN = new ClassFileImporter().importPath(Path.of("target/classes"));

    @Test
    void noPackagesFormACycle() {
        slices().matching("org.brokerapp.(**)").should().beFreeOfCycles().check(CLASSES);
    }

    /** A client of the API, as a customer's would be: the JDK, Jackson and Apache's HTTP client, nothing of the project. */
    @Test
    void usesTheJdkJacksonAndApacheHttpOnly() {
        noClasses().that().resideInAPackage("org.brokerapp.client..")
                .should().dependOnClassesThat().resideOutsideOfPackages("java..", "javax..", "org.brokerapp.client..", "tools.jackson..",
                        "org.apache.hc..")
                .check(MAIN);
    }
}
