package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.RuntimeConfiguration;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.Policies;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.h2.tools.Server;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded H2 store as the runtime opens it when nothing but a URL is configured. H2-only by
 * nature: PostgreSQL has its own users and durability.
 */
class EmbeddedH2StoreTest {

    private static final ToolPolicy REFUND = Policies.downstreamKey("refund", Retry.SAFE).build();
    private static final String KEY = "refund:invoice_842:approved_17";
    private static final Map<String, Object> PAYLOAD = Map.of("invoiceId", "invoice_842");

    @Test
    void theEmbeddedStoreIsNotOpenToOtherLocalUsersWithTheDefaultEmptyPassword(@TempDir Path dir) throws Exception {
        String url = "jdbc:h2:file:" + dir.resolve("operations") + ";AUTO_SERVER=TRUE";
        FakeProvider provider = new FakeProvider();
        try (IdempotentRuntime runtime = configuredBy(url)) {
            runtime.call(REFUND, KEY, PAYLOAD, String.class, () -> provider.apply("refund"));

            assertThat(refusedWithEmptyPassword(url)).as("connecting with sa and an empty password").isTrue();

            Path secret = dir.resolve("operations.secret");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secret))).isEqualTo("rw-------");
            assertThat(status(url, secretIn(secret))).isEqualTo("completed");
        }
        // A later JVM (here: a new runtime) reads the same secret and replays.
        try (IdempotentRuntime later = configuredBy(url)) {
            assertThat(later.call(REFUND, KEY, PAYLOAD, String.class, () -> provider.apply("again")))
                    .isEqualTo("done:refund");
            assertThat(provider.invocations()).isEqualTo(1);
        }
    }

    @Test
    void aStoreCreatedWithTheEmptyPasswordGetsTheSecretOnFirstUse(@TempDir Path dir) throws Exception {
        String url = "jdbc:h2:file:" + dir.resolve("operations") + ";AUTO_SERVER=TRUE";
        DriverManager.getConnection(url, "sa", "").close();
        try (IdempotentRuntime runtime = configuredBy(url)) {
            runtime.call(REFUND, KEY, PAYLOAD, String.class, () -> "done");

            assertThat(refusedWithEmptyPassword(url)).isTrue();
            assertThat(status(url, secretIn(dir.resolve("operations.secret")))).isEqualTo("completed");
        }
    }

    @Test
    void aStoreBehindAnH2ServerGetsDurableCommits(@TempDir Path dir) throws Exception {
        Server server = Server.createTcpServer("-tcpPort", "0", "-ifNotExists", "-baseDir", dir.toString()).start();
        String url = "jdbc:h2:tcp://127.0.0.1:" + server.getPort() + "/operations";
        try (IdempotentRuntime runtime = configuredBy(url)) {
            runtime.call(REFUND, KEY, PAYLOAD, String.class, () -> "done");

            try (Connection c = DriverManager.getConnection(url, "sa", "");
                    Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS"
                            + " WHERE SETTING_NAME = 'WRITE_DELAY'")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).as("WRITE_DELAY of the server's database").isEqualTo("0");
            }
        } finally {
            server.stop();
        }
    }

    /** A runtime configured the way the agent and fromEnvironment() configure it: a URL, nothing else. */
    private static IdempotentRuntime configuredBy(String url) {
        RuntimeConfiguration configuration = new RuntimeConfiguration(Map.of("idempotent.store.url", url), Map.of());
        return IdempotentRuntime.builder().settings(configuration.store("default")).build();
    }

    /** Whether H2 refuses user sa with an empty password (WRONG_USER_OR_PASSWORD). */
    private static boolean refusedWithEmptyPassword(String url) {
        try {
            DriverManager.getConnection(url, "sa", "").close();
            return false;
        } catch (SQLException e) {
            assertThat(e.getErrorCode()).as(e.toString()).isEqualTo(28000);
            return true;
        }
    }

    private static String secretIn(Path file) throws Exception {
        return Files.readString(file, StandardCharsets.US_ASCII).strip();
    }

    private static String status(String url, String password) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "sa", password);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT status FROM tool_operations")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
