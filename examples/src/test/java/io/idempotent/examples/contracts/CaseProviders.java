package io.idempotent.examples.contracts;

import io.idempotent.examples.providers.Providers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The example providers of one contract case: fresh state in a directory of its own, opened as
 * this JVM's {@link Providers} (where the reconcilers find them), deleted after the case.
 */
final class CaseProviders implements AutoCloseable {

    private final Path dir;
    private final Providers providers;
    private final AutoCloseable open;

    CaseProviders() {
        try {
            dir = Files.createTempDirectory("example-contract");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        providers = Providers.open(dir);
        open = providers.database().keepOpen();
    }

    Providers providers() {
        return providers;
    }

    /** Requests that reached {@code provider}. */
    long requests(String provider) {
        return providers.database().count(provider, "invocation");
    }

    /** Business effects {@code provider} applied. */
    long effects(String provider) {
        return providers.database().count(provider, "effect");
    }

    @Override
    public void close() throws Exception {
        open.close();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        }
    }
}
