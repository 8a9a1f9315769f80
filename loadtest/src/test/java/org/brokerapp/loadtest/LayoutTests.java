package org.brokerapp.loadtest;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import java.nio.file.Path;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/** The module's layout: its packages (main and test sources) use each other in one direction only, never around a cycle. */
class LayoutTests {

    @Test
    void noPackagesFormACycle() {
        slices().matching("org.brokerapp.loadtest.(*)..").should().beFreeOfCycles()
                .check(new ClassFileImporter().importPaths(Path.of("target/classes"), Path.of("target/test-classes")));
    }
}
