package org.brokerapp.broker;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameMatching;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
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

import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.brokerapp.broker.account.CustomerLedger;
import org.junit.jupiter.api.Test;

/**
 * The layout docs/architecture/README.md describes (its package table), read from the sources:
 * the order's model in {@code core} uses no other package, the trigger book only the model,
 * configuration ({@code system}) and the HTTP edge ({@code web}) no feature, deciding none of the
 * stages it decides for; orders and cancels enter the matcher through one door; no two packages use
 * each other, directly or around a cycle; and every class, constructor and package stays small
 * enough to read (docs/architecture/placement-walk.md).
 */
class PackageLayoutTests {

    private static final Path SOURCES = Path.of("src/main/java/org/brokerapp/broker");
    private static final Pattern USE = Pattern.compile("org\\.brokerapp\\.broker\\.([a-z]\\w*)\\.[A-Z]");

    private static final Pattern BEAN = Pattern.compile("^@(Component|Service|RestController|Controller|Configuration)\\b", Pattern.MULTILINE);

    private static final Map<String, Set<String>> USES = uses();
    private static final Map<String, Long> SIZES = sizes();

    @Test
    void theOrdersModelUsesNoOtherPackage() {
        assertThat(USES.get("core")).isEmpty();
    }

    @Test
    void theTriggerBookUsesOnlyTheModel() {
        assertThat(USES.get("book")).containsOnly("core");
    }

    @Test
    void configurationUsesNoOtherPackage() {
        assertThat(USES.get("system")).isEmpty();
    }

    @Test
    void theHttpEdgeUsesOnlyConfigurationAndTheModel() {
        assertThat(USES.get("web")).isSubsetOf("core", "system");
    }

    @Test
    void decidingUsesNoStageItDecidesFor() {
        assertThat(USES.get("deciding")).doesNotContainAnyElementsOf(List.of("order", "account", "events", "relay", "matching", "ticker", "routing"));
    }

    /** Ticks come in from the ticker and ops reads the matcher's health; orders and cancels come in through {@code Matcher} alone. */
    @Test
    void ordersAndCancelsEnterTheMatcherThroughOneDoor() {
        Map<String, Set<String>> users = usersOf("matching", "MatchingService");
        assertThat(users.keySet()).containsOnly("ticker", "ops");
        assertThat(usersOf("matching", "Matcher").keySet()).contains("order", "relay");
    }

    /** A fill, cancel or expiry is written to the ledger by the decider alone, under its fence: no other class calls {@code CustomerLedger.fill}, {@code cancel} or {@code expire}. */
    @Test
    void decisionsReachTheLedgerFromTheDeciderAlone() {
        noClasses().that().doNotHaveFullyQualifiedName("org.brokerapp.broker.matching.DecisionWriter")
                .should().callMethodWhere(target(owner(assignableTo(CustomerLedger.class))).and(target(nameMatching("fill|cancel|expire"))))
                .check(new ClassFileImporter().importPath(Path.of("target/classes")));
    }

    @Test
    void noClassIsLongerThan400Lines() {
        assertThat(SIZES.entrySet().stream().filter(e -> e.getValue() > 400).map(Map.Entry::getKey).toList()).isEmpty();
    }

    @Test
    void noBeanTakesMoreThanEightDependencies() {
        List<String> over = new ArrayList<>();
        javaFiles().forEach(file -> {
            String source = read(file);
            String name = file.getFileName().toString().replace(".java", "");
            if (!BEAN.matcher(source).find()) {
                return;
            }
            Matcher constructor = Pattern.compile("\\n\\s+(?:public |protected )?" + name + "\\(([^)]*)\\)\\s*\\{").matcher(source);
            while (constructor.find()) {
                long parameters = constructor.group(1).isBlank() ? 0 : constructor.group(1).split(",(?![^<]*>)").length;
                if (parameters > 8) {
                    over.add(name + " (" + parameters + ")");
                }
            }
        });
        assertThat(over).isEmpty();
    }

    @Test
    void noPackageHoldsMoreThan20Classes() {
        Map<String, Long> perPackage = new TreeMap<>();
        javaFiles().forEach(file -> perPackage.merge(packageOf(file), 1L, Long::sum));
        assertThat(perPackage).allSatisfy((pkg, classes) -> assertThat(classes).as(pkg).isLessThanOrEqualTo(20));
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

    /** Package -> the classes in it naming {@code pkg.type}, for the packages other than {@code pkg} that name it. */
    private static Map<String, Set<String>> usersOf(String pkg, String type) {
        Pattern use = Pattern.compile("org\\.brokerapp\\.broker\\." + pkg + "\\." + type + "\\b");
        Map<String, Set<String>> users = new TreeMap<>();
        javaFiles().filter(file -> !packageOf(file).equals(pkg) && use.matcher(read(file)).find())
                .forEach(file -> users.computeIfAbsent(packageOf(file), p -> new TreeSet<>()).add(file.getFileName().toString()));
        return users;
    }

    private static Map<String, Long> sizes() {
        Map<String, Long> sizes = new TreeMap<>();
        javaFiles().forEach(file -> {
            try {
                sizes.put(SOURCES.relativize(file).toString(), (long) Files.readAllLines(file).size());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        return sizes;
    }

    private static Stream<Path> javaFiles() {
        try (Stream<Path> files = Files.walk(SOURCES)) {
            return files.filter(f -> f.toString().endsWith(".java") && SOURCES.relativize(f).getParent() != null).toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String packageOf(Path file) {
        return SOURCES.relativize(file).getParent().toString().replace('/', '.');
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
