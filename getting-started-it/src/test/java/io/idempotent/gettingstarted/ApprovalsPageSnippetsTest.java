package io.idempotent.gettingstarted;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The examples of docs/approvals.md and docs/outbox.md are code the build compiles: every java block of each page must
 * appear, line for line (indentation and blank lines aside), in one source file of the examples
 * module, where the processor checks the tools and the contract tests run them.
 */
class ApprovalsPageSnippetsTest {

    private static final Path PAGE = Path.of("..", "docs", "approvals.md");
    private static final Path EXAMPLES = Path.of("..", "examples", "src", "main", "java");
    private static final Pattern JAVA_BLOCK = Pattern.compile("(?s)```java\\n(.*?)```");

    @Test
    void everyJavaBlockOfTheApprovalsPageIsPartOfAnExampleSourceUnchanged() throws IOException {
        // the approval tool, the workflow that picks the tool, the workflow's own approval channel
        assertEveryJavaBlockIsInTheExamples(PAGE, 3);
    }

    /** docs/outbox.md's example the same way: the credit tool and the relay. */
    @Test
    void everyJavaBlockOfTheOutboxPageIsPartOfAnExampleSourceUnchanged() throws IOException {
        assertEveryJavaBlockIsInTheExamples(Path.of("..", "docs", "outbox.md"), 2);
    }

    private static void assertEveryJavaBlockIsInTheExamples(Path page, int atLeast) throws IOException {
        List<String> blocks = new ArrayList<>();
        Matcher m = JAVA_BLOCK.matcher(Files.readString(page));
        while (m.find()) {
            blocks.add(m.group(1));
        }
        assertThat(blocks).hasSizeGreaterThanOrEqualTo(atLeast);

        List<List<String>> sources = new ArrayList<>();
        try (Stream<Path> files = Files.walk(EXAMPLES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                sources.add(normalised(Files.readString(file)));
            }
        }
        for (String block : blocks) {
            List<String> lines = normalised(block);
            assertThat(sources.stream().anyMatch(source -> Collections.indexOfSubList(source, lines) >= 0))
                    .as("this block of %s is not, unchanged, in a source file under %s:%n%s", page, EXAMPLES, block)
                    .isTrue();
        }
    }

    private static List<String> normalised(String text) {
        List<String> lines = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                lines.add(line.strip());
            }
        }
        return lines;
    }
}
