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
 * The example of docs/approvals.md is code the build compiles: every java block of the page must
 * appear, line for line (indentation and blank lines aside), in one source file of the examples
 * module, where the processor checks the tools and the contract tests run them.
 */
class ApprovalsPageSnippetsTest {

    private static final Path PAGE = Path.of("..", "docs", "approvals.md");
    private static final Path EXAMPLES = Path.of("..", "examples", "src", "main", "java");
    private static final Pattern JAVA_BLOCK = Pattern.compile("(?s)```java\\n(.*?)```");

    @Test
    void everyJavaBlockOfTheApprovalsPageIsPartOfAnExampleSourceUnchanged() throws IOException {
        List<String> blocks = new ArrayList<>();
        Matcher m = JAVA_BLOCK.matcher(Files.readString(PAGE));
        while (m.find()) {
            blocks.add(m.group(1));
        }
        // the approval tool, the workflow that picks the tool, the workflow's own approval channel
        assertThat(blocks).hasSizeGreaterThanOrEqualTo(3);

        List<List<String>> sources = new ArrayList<>();
        try (Stream<Path> files = Files.walk(EXAMPLES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                sources.add(normalised(Files.readString(file)));
            }
        }
        for (String block : blocks) {
            List<String> lines = normalised(block);
            assertThat(sources.stream().anyMatch(source -> Collections.indexOfSubList(source, lines) >= 0))
                    .as("this block of %s is not, unchanged, in a source file under %s:%n%s", PAGE, EXAMPLES, block)
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
