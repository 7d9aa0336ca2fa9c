package io.idempotent.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The canonical form is the same on every JVM: the corpus hashed in this JVM (the build's JDK 17),
 * in a fresh JVM of the same JDK (other hash salts and identity hash codes) and in a JVM of JDK 25
 * gives the same hashes, and those are the committed ones ({@code payload-corpus.sha256}), so a
 * change of the canonical form, which would turn every stored operation into a payload conflict,
 * is noticed.
 */
class PayloadCorpusTest {

    private static final String GOLDEN = "payload-corpus.sha256";

    @Test
    void theCorpusHashesAsCommitted() throws IOException {
        assertThat(lines(PayloadCorpus.hashes())).isEqualTo(golden());
    }

    @Test
    void aFreshJvmOfTheSameJdkHashesTheCorpusAlike() throws Exception {
        assertThat(forked(Path.of(System.getProperty("java.home"), "bin", "java")))
                .isEqualTo(lines(PayloadCorpus.hashes()));
    }

    @Test
    void jdk25HashesTheCorpusAlike() throws Exception {
        String home = System.getProperty("build.jdk25.home", "");
        Path java25 = Path.of(home, "bin", "java");
        assertThat(Files.isExecutable(java25)).as("the corpus must also be hashed on JDK 25, but there is no %s;"
                + " install Temurin 25 or point -Djdk25.home at one", java25).isTrue();
        assertThat(forked(java25)).isEqualTo(lines(PayloadCorpus.hashes()));
    }

    private static String forked(Path java) throws Exception {
        Process process = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                PayloadCorpus.class.getName()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out;
        try (InputStream in = process.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("the forked corpus JVM ended").isTrue();
        assertThat(process.exitValue()).as(out).isZero();
        return out;
    }

    private static String lines(Map<String, String> hashes) {
        StringBuilder out = new StringBuilder();
        new LinkedHashMap<>(hashes).forEach((name, hash) -> out.append(name).append(' ').append(hash).append('\n'));
        return out.toString();
    }

    private static String golden() throws IOException {
        try (InputStream in = PayloadCorpusTest.class.getResourceAsStream(GOLDEN)) {
            assertThat(in).as("the committed hashes %s", GOLDEN).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
