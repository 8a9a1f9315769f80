package org.brokerapp.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The layout docs/architecture/README.md describes (its package table), read from the
 * sources: the order's model in {@code core} uses no other package, the trigger book only the
 * model, the system package no feature, and no two packages use each other, directly or around a
 * cycle.
 */
class PackageLayoutTests {

    private static final Path SOURCES = Path.of("src/main/java/org/brokerapp/broker");
    private static final Pattern USE = Pattern.compile("org\\.brokerapp\\.broker\\.([a-z]\\w*)\\.[A-Z]");

    private static final Map<String, Set<String>> USES = uses();

    @Test
    void theOrdersModelUsesNoOtherPackage() {
        assertThat(USES.get("core")).isEmpty();
    }

    @Test
    void theTriggerBookUsesOnlyTheModel() {
        assertThat(USES.get("book")).containsOnly("core");
    }

    @Test
    void theSystemPackageUsesNoFeature() {
        assertThat(USES.get("system")).containsOnly("core");
    }

    @Test
    void noPackagesFormACycle() {
        assertThat(USES).containsKeys("order", "account", "relay", "ticker", "matching", "routing");
        List<String> cycles = new ArrayList<>();
        for (String start : USES.keySet()) {
            if (reaches(start, start, new HashSet<>())) {
                cycles.add(start);
            }
        }
        assertThat(cycles).as("packages on a cycle: %s", USES).isEmpty();
    }

    private static boolean reaches(String from, String target, Set<String> seen) {
        for (String next : USES.getOrDefault(from, Set.of())) {
            if (next.equals(target) || (seen.add(next) && reaches(next, target, seen))) {
                return true;
            }
        }
        return false;
    }

    /** Package (relative to the broker's root) -> the other broker packages its main sources name. */
    private static Map<String, Set<String>> uses() {
        Map<String, Set<String>> uses = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(file -> {
                Path dir = SOURCES.relativize(file).getParent();
                if (dir == null) {
                    return;
                }
                String pkg = dir.toString().replace('/', '.');
                Set<String> used = uses.computeIfAbsent(pkg, p -> new TreeSet<>());
                Matcher m = USE.matcher(read(file));
                while (m.find()) {
                    if (!m.group(1).equals(pkg)) {
                        used.add(m.group(1));
                    }
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return uses;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file).replaceFirst("(?m)^package [\\w.]+;", "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
