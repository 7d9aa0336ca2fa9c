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
 * to a heading of the page it names), so that moving a section never leaves a reader at a dead end;
 * and every table of contents lists its page's sections.
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

    /** The runtime's reference is read by section: each of its pages opens with a checked table of contents. */
    @Test
    void eachPageOfTheRuntimeReferenceHasATableOfContents() {
        MarkdownLinks links = new MarkdownLinks();
        for (String page : List.of("runtime.md", "store.md", "configuration.md", "store-connections.md")) {
            assertThat(links.contentsOf(ROOT.resolve("docs").resolve(page))).as("the contents of docs/" + page).isNotEmpty();
        }
    }
}
