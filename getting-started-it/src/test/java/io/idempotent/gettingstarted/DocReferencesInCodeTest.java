package io.idempotent.gettingstarted;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Messages and javadoc send readers to a page of the docs ({@code docs/store.md}), a heading of it
 * ({@code docs/operating.md#the-command-line}) or a quoted part of it ({@code docs/configuration.md,
 * "Every setting"}): each must still be there after a page is split or a section moved, as
 * {@link DocLinksTest} checks the pages' own links.
 */
class DocReferencesInCodeTest {

    private static final Path ROOT = Path.of("..");
    /** A page, then an anchor or a quoted section name ({@code \"} inside a Java string). */
    private static final Pattern REFERENCE =
            Pattern.compile("docs/([a-z0-9-]+\\.md)(?:#([a-z0-9_-]+)|, \\\\?\"([^\"\\\\]+)\\\\?\")?");

    @Test
    void everyPageAnchorAndSectionTheMainSourcesNameExists() throws IOException {
        List<Path> sources = mainSources();
        assertThat(sources).as("the main sources of the modules").hasSizeGreaterThan(100);

        MarkdownLinks links = new MarkdownLinks();
        List<String> problems = new ArrayList<>();
        int references = 0;
        for (Path source : sources) {
            Matcher m = REFERENCE.matcher(Files.readString(source));
            while (m.find()) {
                references++;
                String problem = problem(links, m.group(1), m.group(2), m.group(3));
                if (problem != null) {
                    problems.add(ROOT.relativize(source) + ": " + m.group() + ": " + problem);
                }
            }
        }
        assertThat(references).as("references to docs pages in the main sources").isGreaterThan(20);
        assertThat(problems).as("references to docs that no longer resolve").isEmpty();
    }

    @Test
    void aMovedPageAMissingAnchorAndAnUnknownSectionAreFound() {
        MarkdownLinks links = new MarkdownLinks();

        assertThat(problem(links, "runtime.md", null, null)).isNull();
        assertThat(problem(links, "no-such-page.md", null, null)).isEqualTo("no such page");
        assertThat(problem(links, "configuration.md", "every-setting", null)).isNull();
        assertThat(problem(links, "runtime.md", "every-setting", null)).isEqualTo("no heading #every-setting");
        assertThat(problem(links, "configuration.md", null, "Every setting")).isNull();
        assertThat(problem(links, "runtime.md", null, "Configuration"))
                .as("the section that moved to docs/configuration.md").isEqualTo("no heading or quoted label \"Configuration\"");
        assertThat(problem(links, "troubleshooting.md", null, "runs without the agent")).isNull();
    }

    /** The .java and .kt files under every module's src/main, build output and VCS data skipped. */
    private static List<Path> mainSources() throws IOException {
        List<Path> sources = new ArrayList<>();
        Files.walkFileTree(ROOT, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                return name.equals("target") || name.equals(".git") || name.equals("node_modules")
                        ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                String path = file.toString().replace('\\', '/');
                if (path.contains("/src/main/") && (path.endsWith(".java") || path.endsWith(".kt"))) {
                    sources.add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        sources.sort(null);
        return sources;
    }

    /**
     * Why a reference does not resolve, or null: the page, its anchor, or the quoted section, which
     * is a heading of the page or a label the page quotes (a troubleshooting row's {@code ("runs
     * without the agent")}).
     */
    private static String problem(MarkdownLinks links, String page, String anchor, String section) {
        Path file = ROOT.resolve("docs").resolve(page);
        if (!Files.isRegularFile(file)) {
            return "no such page";
        }
        if (anchor != null && !links.anchorsOf(file).contains(anchor)) {
            return "no heading #" + anchor;
        }
        if (section != null) {
            String wanted = section.toLowerCase(Locale.ROOT);
            boolean heading = links.headings(file).stream().anyMatch(h -> h.text().toLowerCase(Locale.ROOT).equals(wanted));
            String text;
            try {
                text = Files.readString(file).toLowerCase(Locale.ROOT);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (!heading && !text.contains("\"" + wanted + "\"")) {
                return "no heading or quoted label \"" + section + "\"";
            }
        }
        return null;
    }
}
