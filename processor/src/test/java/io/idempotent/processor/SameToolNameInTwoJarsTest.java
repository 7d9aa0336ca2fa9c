package io.idempotent.processor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.agent.ReplayedCall;
import io.idempotent.runtime.agent.ToolCall;
import io.idempotent.runtime.agent.ToolDispatcher;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.List;
import java.util.UUID;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two tool classes compiled apart, each with the processor, into two class path entries (as two
 * jars would be), both declaring the tool {@code issue_refund} on the default store. The runtime
 * must refuse both, naming both classes, instead of answering the second with the first one's
 * stored result.
 */
class SameToolNameInTwoJarsTest {

    private static final String DESCRIPTOR = "issueRefund(Ljava/lang/String;)Ljava/lang/String;";

    @Test
    void twoClassesWithOneToolNameOnOneStoreAreBothRefused(@TempDir Path dir) throws Exception {
        Path first = compile(dir, "billing", "first");
        Path second = compile(dir, "payments", "second");
        String url = "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        try (URLClassLoader loader = new URLClassLoader(new URL[] {first.toUri().toURL(), second.toUri().toURL()},
                getClass().getClassLoader());
                IdempotentRuntime runtime = IdempotentRuntime.builder().store("default", url, "sa", "").build()) {
            Class<?> billing = loader.loadClass("billing.RefundTools");
            Class<?> payments = loader.loadClass("payments.RefundTools");
            IdempotentRuntime previous = IdempotentRuntime.setGlobal(runtime);
            try {
                for (Class<?> tools : List.of(billing, payments, billing)) {
                    assertThatThrownBy(() -> callAsTheAgentWould(tools, "inv_842"))
                            .isInstanceOf(StoreConfigurationException.class)
                            .hasMessageContaining("issue_refund")
                            .hasMessageContaining("billing.RefundTools")
                            .hasMessageContaining("payments.RefundTools")
                            .hasMessageContaining("the body did not run")
                            .hasMessageContaining("@IdempotentTool(name = ...)");
                }
            } finally {
                IdempotentRuntime.setGlobal(previous);
            }
            assertThat(billing.getField("runs").getInt(null)).as("billing body runs").isZero();
            assertThat(payments.getField("runs").getInt(null)).as("payments body runs").isZero();
            assertThat(operationRows(url)).as("operation rows").isZero();
        }
    }

    /** The rows of tool_operations; none when nothing was ever claimed (the table is made by the first claim). */
    private static long operationRows(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url, "sa", "")) {
            try (ResultSet tables = c.getMetaData().getTables(null, null, "TOOL_OPERATIONS", null)) {
                if (!tables.next()) {
                    return 0;
                }
            }
            try (ResultSet rows = c.createStatement().executeQuery("SELECT COUNT(*) FROM tool_operations")) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    /** What the agent's advice does: enter, run the body only if the call was not refused or replayed, exit. */
    private static Object callAsTheAgentWould(Class<?> tools, String invoiceId) throws Throwable {
        Object[] args = {invoiceId};
        ToolCall call = ToolDispatcher.enter(tools, DESCRIPTOR, args);
        if (call instanceof ReplayedCall) {
            return call.exit(null, null);
        }
        Method body = tools.getMethod("issueRefund", String.class);
        return call.exit(body.invoke(tools.getDeclaredConstructor().newInstance(), args), null);
    }

    /** Compiles one RefundTools in package {@code pkg} with the processor into its own directory. */
    private static Path compile(Path dir, String pkg, String entry) throws IOException {
        Path source = dir.resolve("src-" + entry).resolve(pkg).resolve("RefundTools.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, "package " + pkg + ";\n"
                + "import io.idempotent.annotations.IdempotentTool;\n"
                + "import io.idempotent.annotations.Retry;\n"
                + "public class RefundTools {\n"
                + "    public static int runs;\n"
                + "    @IdempotentTool(key = \"refund:{invoiceId}\", downstreamKey = true, downstreamRetention = \"P1D\","
                + " retry = Retry.SAFE, name = \"issue_refund\")\n"
                + "    public String issueRefund(String invoiceId) { runs++; return \"" + pkg + ":\" + invoiceId; }\n"
                + "}\n");
        Path classes = dir.resolve(entry);
        Files.createDirectories(classes);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, null)) {
            JavaCompiler.CompilationTask task = javac.getTask(null, files, diagnostics,
                    List.of("-d", classes.toString(), "-cp", System.getProperty("java.class.path")), null,
                    files.getJavaFileObjects(source));
            task.setProcessors(List.of(new IdempotentToolProcessor()));
            assertThat(task.call()).as("javac: %s", diagnostics.getDiagnostics()).isTrue();
        }
        assertThat(classes.resolve("META-INF/idempotent/tools.json")).exists();
        return classes;
    }
}
