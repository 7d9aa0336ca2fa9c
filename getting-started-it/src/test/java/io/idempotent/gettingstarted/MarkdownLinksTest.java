package io.idempotent.gettingstarted;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The link checker of {@link DocLinksTest}: it finds a broken link and a broken anchor, and only those,
 * and a table of contents that leaves out a section or lists it out of order.
 */
class MarkdownLinksTest {

    @TempDir
    Path dir;

    @Test
    void reportsAMissingFileAndAMissingHeadingAndNothingElse() throws IOException {
        Files.createDirectories(dir.resolve("docs"));
        Files.writeString(dir.resolve("docs/guide.md"), String.join("\n",
                "# The guide",
                "## Agent frameworks: Spring AI, LangChain4j, MCP",
                "## An application's own `DataSource`",
                "## Notes",
                "## Notes",
                "```",
                "## Not a heading: inside a fence",
                "```",
                "Back to the [README](../README.md#quick-start)."));
        Files.writeString(dir.resolve("README.md"), String.join("\n",
                "# Title",
                "## Quick start",
                "See [the guide](docs/guide.md), [frameworks](docs/guide.md#agent-frameworks-spring-ai-langchain4j-mcp),",
                "[its own data source](docs/guide.md#an-applications-own-datasource), the [second",
                "notes](docs/guide.md#notes-1), [this page](#quick-start), [the docs](docs/),",
                "[a site](https://example.com/missing.md#nowhere) and `[code](nowhere.md)`.",
                "```",
                "[in a fence](missing-in-fence.md)",
                "```",
                "A [moved page](docs/performance.md) and a [moved heading](docs/guide.md#operating-it).",
                "[ref]: docs/guide.md#the-guide"));

        List<MarkdownLinks.Broken> broken =
                new MarkdownLinks().check(List.of(dir.resolve("README.md"), dir.resolve("docs/guide.md")));

        assertThat(broken).extracting(MarkdownLinks.Broken::target, MarkdownLinks.Broken::line)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("docs/performance.md", 10),
                        org.assertj.core.groups.Tuple.tuple("docs/guide.md#operating-it", 10));
        assertThat(broken.get(0).reason()).startsWith("no such file:");
        assertThat(broken.get(1).reason()).isEqualTo("no heading #operating-it in guide.md");
    }

    @Test
    void aHeadingInsideAFenceIsNoAnchor() throws IOException {
        Files.writeString(dir.resolve("page.md"), String.join("\n",
                "# Page", "```", "## Hidden", "```", "[hidden](#hidden)"));

        assertThat(new MarkdownLinks().check(List.of(dir.resolve("page.md"))))
                .extracting(MarkdownLinks.Broken::target).containsExactly("#hidden");
    }

    @Test
    void aTableOfContentsEntryToAMissingHeadingIsABrokenAnchor() throws IOException {
        Files.writeString(dir.resolve("page.md"), String.join("\n",
                "# Page",
                "## Contents",
                "- [Setup](#setup)",
                "- [Operating it](#operating-it)",
                "## Setup",
                "## Operating"));

        List<MarkdownLinks.Broken> broken = new MarkdownLinks().check(List.of(dir.resolve("page.md")));

        assertThat(broken).extracting(MarkdownLinks.Broken::line, MarkdownLinks.Broken::reason).containsExactly(
                org.assertj.core.groups.Tuple.tuple(4, "no heading #operating-it in page.md"),
                org.assertj.core.groups.Tuple.tuple(6, "heading \"Operating\" is missing from the table of contents"));
    }

    @Test
    void aTableOfContentsListsEverySectionBelowItInThePagesOrder() throws IOException {
        Files.writeString(dir.resolve("page.md"), String.join("\n",
                "# Page",
                "Intro.",
                "## Contents",
                "",
                "- [Setup](#setup)",
                "  - [On H2](#on-h2)",
                "- [Errors](#errors)",
                "- [Settings](#settings)",
                "- [the README](README.md)",
                "",
                "## Setup",
                "### On H2",
                "### On PostgreSQL",
                "#### Deeper sections need no entry",
                "```",
                "## Not a heading: inside a fence",
                "```",
                "## Settings",
                "## Errors"));
        Files.writeString(dir.resolve("README.md"), "# Readme");

        List<MarkdownLinks.Broken> broken = new MarkdownLinks().check(List.of(dir.resolve("page.md")));

        assertThat(broken).extracting(MarkdownLinks.Broken::line, MarkdownLinks.Broken::target, MarkdownLinks.Broken::reason)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(7, "#errors",
                                "table of contents out of the page's order: #settings comes first"),
                        org.assertj.core.groups.Tuple.tuple(9, "",
                                "a table of contents entry must link to a heading of its page"),
                        org.assertj.core.groups.Tuple.tuple(13, "#on-postgresql",
                                "heading \"On PostgreSQL\" is missing from the table of contents"));
    }

    @Test
    void aCompleteTableOfContentsPassesAndAPageWithoutOneIsNotAskedForOne() throws IOException {
        Files.writeString(dir.resolve("page.md"), String.join("\n",
                "# Page", "## Contents", "- [`idem` setup](#idem-setup)", "  - [Notes](#notes)",
                "- [Notes](#notes-1)", "## `idem` setup", "### Notes", "## Notes"));
        Files.writeString(dir.resolve("plain.md"), String.join("\n", "# Plain", "## One", "## Two"));
        Files.writeString(dir.resolve("empty.md"), String.join("\n", "# Empty", "## Contents", "", "## One"));

        MarkdownLinks links = new MarkdownLinks();
        assertThat(links.check(List.of(dir.resolve("page.md"), dir.resolve("plain.md")))).isEmpty();
        assertThat(links.contentsOf(dir.resolve("page.md"))).extracting(MarkdownLinks.Entry::anchor)
                .containsExactly("idem-setup", "notes", "notes-1");
        assertThat(links.check(List.of(dir.resolve("empty.md")))).extracting(MarkdownLinks.Broken::reason)
                .containsExactly("a Contents heading without its list");
    }

    @Test
    void slugsFollowGitHubsRules() {
        assertThat(MarkdownLinks.slug("What it guarantees, and what it does not"))
                .isEqualTo("what-it-guarantees-and-what-it-does-not");
        assertThat(MarkdownLinks.slug("`idem serve`: the console (beta)")).isEqualTo("idem-serve-the-console-beta");
        assertThat(MarkdownLinks.slug("The store's files & credentials")).isEqualTo("the-stores-files--credentials");
        assertThat(MarkdownLinks.slug("Run [it](x.md) on JDK 25")).isEqualTo("run-it-on-jdk-25");
        assertThat(MarkdownLinks.slug("tool_operations, 10⁷ rows")).isEqualTo("tool_operations-10⁷-rows");
    }
}
