package io.idempotent.gettingstarted;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link and every anchor in README.md and docs/*.md resolves (to a file that exists,
 * to a heading of the page it names), so that moving a section never leaves a reader at a dead end.
 */
class DocLinksTest {

    private static final Path ROOT = Path.of("..");

    @Test
    void everyRelativeLinkAndAnchorOfTheReadmeAndTheDocsResolves() throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(ROOT.resolve("README.md"));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.getFileName().toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        assertThat(pages).as("the README and at least one docs page").hasSizeGreaterThan(1);

        assertThat(new MarkdownLinks().check(pages)).as("broken links").isEmpty();
    }
}
