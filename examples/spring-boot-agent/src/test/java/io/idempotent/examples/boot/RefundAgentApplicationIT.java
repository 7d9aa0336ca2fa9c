package io.idempotent.examples.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The example on a class path: {@code java -javaagent:idempotent-javaagent.jar=store.url=... -cp ...
 * io.idempotent.examples.boot.RefundAgentApplication}.
 */
class RefundAgentApplicationIT extends RefundAgentRun {

    @BeforeAll
    static void runTheApplication() throws Exception {
        Path dir = Files.createTempDirectory("boot-agent");
        run(dir, List.of(java(), agent(dir), "-cp", System.getProperty("java.class.path"),
                RefundAgentApplication.class.getName()));
    }

    @Test
    void theAgentsStartLineCountsTheToolItWraps() {
        assertThat(output).contains("[idempotent-agent] started: wrapped 1 tool method(s), 1 listed in");
    }
}
