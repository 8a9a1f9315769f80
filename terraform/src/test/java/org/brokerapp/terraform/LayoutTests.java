package org.brokerapp.terraform;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/** The Terraform checks' layout: their packages never form a cycle. */
class LayoutTests {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .importPaths(Stream.of("target/classes", "target/test-classes").map(Path::of).filter(Files::isDirectory).toList());

    @Test
    void noPackagesFormACycle() {
        slices().matching("org.brokerapp.(**)").should().beFreeOfCycles().check(CLASSES);
    }
}
