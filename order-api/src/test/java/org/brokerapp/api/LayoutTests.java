package org.brokerapp.api;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/** The order API's layout: no package cycle, and the shared types depend on the JDK alone. */
class LayoutTests {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .importPaths(Stream.of("target/classes", "target/test-classes").map(Path::of).filter(Files::isDirectory).toList());

    private static final JavaClasses MAIN = new ClassFileImporter().importPath(Path.of("target/classes"));

    @Test
    void noPackagesFormACycle() {
        slices().matching("org.brokerapp.(**)").should().beFreeOfCycles().check(CLASSES);
    }

    /** The broker and the harness share these types: they name nothing but the JDK. */
    @Test
    void theOrderTypesUseOnlyTheJdk() {
        noClasses().that().resideInAPackage("org.brokerapp.api..")
                .should().dependOnClassesThat().resideOutsideOfPackages("java..", "org.brokerapp.api..")
                .check(MAIN);
    }
}
