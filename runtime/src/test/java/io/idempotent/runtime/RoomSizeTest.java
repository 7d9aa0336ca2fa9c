package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The house rule of issue 40: no class of the runtime grows past about 450 lines. The protocol's
 * decision class once grew from 570 to 916 lines by absorbing three features, one small edit at a
 * time; a limit that only a reviewer remembers does not hold. A class that reaches the limit is
 * split by decision, as {@code docs/architecture.md} shows, not allowed more lines here.
 */
class RoomSizeTest {

    /** The most lines a source file of {@code runtime/src/main} may have. */
    private static final int MOST_LINES = 450;

    @Test
    void noRuntimeClassIsLargerThanARoom() throws IOException {
        Path sources = Path.of("src", "main", "java");
        assertThat(sources).as("the runtime's sources, relative to the module's directory").isDirectory();
        List<String> tooLarge;
        try (Stream<Path> files = Files.walk(sources)) {
            tooLarge = files.filter(f -> f.toString().endsWith(".java"))
                    .filter(f -> lines(f) > MOST_LINES)
                    .map(f -> sources.relativize(f) + " (" + lines(f) + " lines)")
                    .sorted()
                    .collect(Collectors.toList());
        }
        assertThat(tooLarge)
                .as("runtime classes over %d lines: split each by decision (docs/architecture.md)", MOST_LINES)
                .isEmpty();
    }

    private static long lines(Path file) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
