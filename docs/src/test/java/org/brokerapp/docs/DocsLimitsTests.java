package org.brokerapp.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The documentation's limits (issue #59), so that it stays a front page and a manual rather than a
 * notebook: the README short, its run command near the top, no commit hash or date on it; every
 * manual page short and opening with an overview; no table cell a paragraph; every relative link
 * and anchor resolving.
 */
class DocsLimitsTests {

    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final Path README = REPO.resolve("README.md");
    private static final Path DOCS = REPO.resolve("docs");
    private static final int LONGEST_CELL = 200;
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern COMMIT = Pattern.compile("(?<![\\w/.#-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}(?![\\w/-])");
    private static final Pattern DATE = Pattern.compile("\\b20\\d\\d-[01]\\d-[0-3]\\d\\b");

    @Test
    void theReadmeIsAFrontPage() {
        List<String> lines = lines(README);

        assertThat(lines).as("README.md lines").hasSizeLessThanOrEqualTo(200);
        assertThat(lines.subList(0, Math.min(40, lines.size()))).as("the run command in the first 40 lines")
                .anySatisfy(line -> assertThat(line.trim()).isEqualTo("loadtest/bin/demo"));
        assertThat(lines).as("commit hashes on the front page").noneMatch(line -> COMMIT.matcher(line).find());
        assertThat(lines).as("dates on the front page").noneMatch(line -> DATE.matcher(line).find());
    }

    @Test
    void manualPagesAreShortAndOpenWithAnOverview() {
        for (String book : List.of("architecture", "guide", "reliability")) {
            for (Path page : markdown(DOCS.resolve(book))) {
                List<String> lines = lines(page);
                assertThat(lines).as(page + " lines").hasSizeLessThanOrEqualTo(300);
                assertThat(firstAfterTitle(lines)).as(page + ": an overview paragraph under the title").matches("[A-Za-z`*(\\[].*");
            }
        }
        assertThat(lines(DOCS.resolve("benchmarks/README.md"))).as("the results table's page").hasSizeLessThanOrEqualTo(150);
        assertThat(lines(DOCS.resolve("reliability/README.md"))).as("the reliability front page").hasSizeLessThanOrEqualTo(150);
    }

    @Test
    void noTableCellIsAParagraph() {
        List<String> long_ = new ArrayList<>();
        for (Path page : pages()) {
            boolean code = false;
            for (String line : lines(page)) {
                code ^= line.trim().startsWith("```");
                if (!code && line.trim().startsWith("|")) {
                    for (String cell : line.trim().replaceAll("^\\||\\|$", "").split("(?<!\\\\)\\|")) {
                        if (cell.strip().length() > LONGEST_CELL) {
                            long_.add(REPO.relativize(page) + ": " + cell.strip().length() + " characters: " + cell.strip().substring(0, 60) + "...");
                        }
                    }
                }
            }
        }
        assertThat(long_).as("table cells over " + LONGEST_CELL + " characters").isEmpty();
    }

    @Test
    void everyRelativeLinkAndAnchorResolves() {
        Map<Path, Set<String>> anchors = new HashMap<>();
        List<String> broken = new ArrayList<>();
        for (Path page : pages()) {
            boolean code = false;
            for (String line : lines(page)) {
                code ^= line.trim().startsWith("```");
                if (code) {
                    continue;
                }
                Matcher link = LINK.matcher(line.replaceAll("`[^`]*`", ""));
                while (link.find()) {
                    String target = link.group(1);
                    if (target.matches("^[a-z]+:.*")) {
                        continue;
                    }
                    int hash = target.indexOf('#');
                    String file = hash < 0 ? target : target.substring(0, hash);
                    Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                    if (!Files.exists(resolved)) {
                        broken.add(REPO.relativize(page) + ": " + target + " (no such file)");
                    } else if (hash >= 0 && resolved.toString().endsWith(".md")
                            && !anchors.computeIfAbsent(resolved, DocsLimitsTests::anchorsOf).contains(target.substring(hash + 1))) {
                        broken.add(REPO.relativize(page) + ": " + target + " (no such heading)");
                    }
                }
            }
        }
        assertThat(broken).as("relative links that do not resolve").isEmpty();
    }

    /** GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces as dashes, repeats numbered. */
    static Set<String> anchorsOf(Path page) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean code = false;
        for (String line : lines(page)) {
            code ^= line.trim().startsWith("```");
            if (!code && line.matches("^#{1,6} .*")) {
                String slug = line.replaceFirst("^#+ ", "").trim().toLowerCase(Locale.ROOT)
                        .replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
                int n = seen.merge(slug, 1, Integer::sum);
                anchors.add(n == 1 ? slug : slug + "-" + (n - 1));
            }
        }
        return anchors;
    }

    private static String firstAfterTitle(List<String> lines) {
        return lines.stream().skip(1).filter(l -> !l.isBlank()).findFirst().orElse("");
    }

    /** The front page, every page under docs/ and every module's README. */
    private static List<Path> pages() {
        List<Path> pages = new ArrayList<>(markdown(DOCS));
        pages.add(README);
        try (Stream<Path> modules = Files.list(REPO)) {
            modules.map(m -> m.resolve("README.md")).filter(Files::exists).forEach(pages::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pages;
    }

    private static List<Path> markdown(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.toString().endsWith(".md"))
                    .filter(f -> !DOCS.relativize(f).startsWith("src") && !DOCS.relativize(f).startsWith("target"))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
