package org.brokerapp.regions;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/** The regions model's layout: no package cycle, and nothing but the JDK and Jackson under it. */
class LayoutTests {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .importPaths(Stream.of("target/classes", "target/test-classes").map(Path::of).filter(Files::isDirectory).toList());

    private static final JavaClasses MAIN = new ClassFileImporter().importPath(Path.of("target/classes"));

    @Test
    void noPackagesFormACycle() {
        slices().matching("org.brokerapp.(**)").should().beFreeOfCycles().check(CLASSES);
    }

    /** Every module reads the regions model, so it stays free of their frameworks: the JDK and Jackson only. */
    @Test
    void usesOnlyTheJdkAndJackson() {
        noClasses().that().resideInAPackage("org.brokerapp.regions..")
                .should().dependOnClassesThat().resideOutsideOfPackages("java..", "javax..", "org.brokerapp.regions..", "tools.jackson..",
                        "com.fasterxml.jackson..")
                .check(MAIN);
    }
}
