package io.idempotent.runtime.transactional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.StoreConfigurationException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transactional tool listed in a release-gate table on a store that cannot run its claim, body
 * and completion in one transaction (an embedded H2 file shared by {@code AUTO_SERVER}, whose
 * statements run on the store's own threads) stops the runtime at start, not at the first call.
 */
class TransactionalStoreCheckTest {

    @TempDir
    Path dir;

    private ClassLoader withTable(boolean transactional) throws Exception {
        Path table = dir.resolve("classes/META-INF/idempotent/tools.json");
        Files.createDirectories(table.getParent());
        Files.writeString(table, "{\n  \"tools\": [\n    {\n      \"name\": \"ledger_entry\",\n"
                + "      \"class\": \"a.LedgerTools\",\n      \"method\": \"addEntry(java.lang.String id)\",\n"
                + "      \"store\": \"ledger\",\n      \"transactional\": " + transactional + "\n    }\n  ]\n}\n");
        return new URLClassLoader(new URL[] {dir.resolve("classes").toUri().toURL()}, getClass().getClassLoader());
    }

    private IdempotentRuntime buildWith(ClassLoader tables, String url) {
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        thread.setContextClassLoader(tables);
        try {
            return IdempotentRuntime.builder().store("ledger", url, "sa", "ledger-secret").build();
        } finally {
            thread.setContextClassLoader(before);
        }
    }

    @Test
    void aSharedEmbeddedStoreOfATransactionalToolStopsTheStart() throws Exception {
        String shared = "jdbc:h2:file:" + dir.resolve("shared").toAbsolutePath() + ";AUTO_SERVER=TRUE";

        assertThatThrownBy(() -> buildWith(withTable(true), shared)).isInstanceOf(StoreConfigurationException.class)
                .hasMessageContaining("tool ledger_entry")
                .hasMessageContaining("the tool is transactional, but store \"ledger\" cannot run its claim, body and"
                        + " completion in one transaction")
                .hasMessageContaining("the runtime does not start");
    }

    @Test
    void theSameStoreStartsForATableWithoutTransactionalTools() throws Exception {
        String shared = "jdbc:h2:file:" + dir.resolve("shared").toAbsolutePath() + ";AUTO_SERVER=TRUE";
        try (IdempotentRuntime runtime = buildWith(withTable(false), shared)) {
            assertThat(runtime.describeStores()).hasSize(1);
        }
    }

    @Test
    void aStoreThatRunsOnTheCallersThreadStartsForATransactionalTool() throws Exception {
        String own = "jdbc:h2:file:" + dir.resolve("own").toAbsolutePath();
        try (IdempotentRuntime runtime = buildWith(withTable(true), own)) {
            assertThat(runtime.describeStores()).hasSize(1);
        }
    }
}
