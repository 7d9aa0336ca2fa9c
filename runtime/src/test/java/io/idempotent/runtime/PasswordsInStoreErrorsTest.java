package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.CapturedLog;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.Policies;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A password written into a store's URL reaches no message, cause or log line, however the driver
 * or the pool quotes the URL (item 10 of issue 27): the whole printed exception, causes and
 * suppressed ones included, is searched for it.
 */
class PasswordsInStoreErrorsTest {

    private static final ToolPolicy REFUND = Policies.downstreamKey("refund", Retry.SAFE).build();
    private static final Map<String, Object> PAYLOAD = Map.of("invoiceId", "invoice_842");

    @Test
    void aPostgresUrlWithAPasswordBeforeTheHostIsRefusedBeforeTheDriverSeesIt() throws Exception {
        int port = closedPort();
        for (String url : List.of("jdbc:postgresql://app:s3cr3t@127.0.0.1:" + port + "/db",
                "jdbc:postgresql://app:s3cr3t/w@127.0.0.1:" + port + "/db")) {
            FakeProvider provider = new FakeProvider();
            try (CapturedLog log = new CapturedLog()) {
                Throwable refused = callOn(url, provider);

                assertThat(refused).as(url).isInstanceOf(StoreConfigurationException.class)
                        .hasMessageContaining("store.user and store.password");
                assertThat(printed(refused)).as(url).doesNotContain("s3cr3t");
                assertThat(log.text()).as(url + ": the log").doesNotContain("s3cr3t");
                assertThat(provider.invocations()).isZero();
            }
        }
    }

    @Test
    void aUrlTheDriverDoesNotAcceptIsRefusedWithoutItsPassword() {
        String url = "jdbc:postgresql://127.0.0.1:notaport/db?sslpassword=s3cr3t";
        try (CapturedLog log = new CapturedLog()) {
            Throwable refused = callOn(url, new FakeProvider());

            assertThat(refused).isInstanceOf(StoreConfigurationException.class)
                    .hasMessageContaining("does not accept the URL").hasMessageContaining("sslpassword=***");
            assertThat(printed(refused)).doesNotContain("s3cr3t");
            assertThat(log.text()).doesNotContain("s3cr3t");
        }
    }

    @Test
    void aPasswordInAnH2UrlIsTheStoresPasswordAndNoSecretIsMade(@TempDir Path dir) throws Exception {
        String url = "jdbc:h2:file:" + dir.resolve("operations") + ";AUTO_SERVER=TRUE;PASSWORD=s3cr3t";
        try (IdempotentRuntime runtime = IdempotentRuntime.builder().store("default", url, null, null).build()) {
            assertThat(runtime.call(REFUND, "refund:1", PAYLOAD, String.class, () -> "done")).isEqualTo("done");
        }
        assertThat(dir.resolve("operations.secret")).doesNotExist();
        DriverManager.getConnection("jdbc:h2:file:" + dir.resolve("operations"), "sa", "s3cr3t").close();
    }

    @Test
    void anH2ErrorThatQuotesTheUrlIsMaskedInTheMessageAndEveryCause(@TempDir Path dir) {
        String url = "jdbc:h2:file:" + dir.resolve("operations") + ";PASSWORD=s3cr3t;NOT_A_SETTING";
        try (CapturedLog log = new CapturedLog()) {
            Throwable refused = callOn(url, new FakeProvider());

            assertThat(refused).isInstanceOf(IdempotencyException.class).hasMessageContaining("PASSWORD=***");
            assertThat(printed(refused)).contains("90046").doesNotContain("s3cr3t");
            assertThat(log.text()).doesNotContain("s3cr3t");
        }
        assertThat(Files.exists(dir.resolve("operations.mv.db"))).isFalse();
    }

    private static Throwable callOn(String url, FakeProvider provider) {
        return catchThrowable(() -> {
            try (IdempotentRuntime runtime = IdempotentRuntime.builder().store("default", url, null, null).build()) {
                runtime.call(REFUND, "refund:1", PAYLOAD, String.class, () -> provider.apply("refund"));
            }
        });
    }

    /** The exception as a log prints it: message, causes, suppressed ones and stack traces. */
    private static String printed(Throwable t) {
        assertThat(t).isNotNull();
        StringWriter out = new StringWriter();
        t.printStackTrace(new PrintWriter(out));
        return out.toString();
    }

    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
