package io.idempotent.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.it.tools.ShapeTools;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.MissingBindingException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import javax.tools.ToolProvider;
import net.bytebuddy.agent.ByteBuddyAgent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tier 2: the agent's own installer on an instrumentation attached to this JVM. The tool class
 * is already loaded, so this also proves that loaded classes are retransformed. The transformer
 * is reset afterwards so that the other tests of this JVM see their classes untouched.
 */
class InstalledAgentTest extends AdvisedToolsContract {

    private static Instrumentation instrumentation;
    private static InstalledTransformers transformer;

    @BeforeAll
    static void installTheAgent() {
        // Loaded before the agent exists: it must be retransformed, not only caught at load time.
        assertThat(ShapeTools.class.getDeclaredMethods()).isNotEmpty();
        instrumentation = ByteBuddyAgent.install();
        transformer = AgentInstaller.install(instrumentation);
    }

    @AfterAll
    static void resetTheAgent() {
        transformer.reset(instrumentation);
    }

    @Override
    Class<?> advisedTools() {
        return ShapeTools.class;
    }

    @Test
    void theToolClassWasWrappedWithoutErrors() {
        assertThat(AgentStatus.transformedClasses()).isPositive();
        assertThat(AgentStatus.transformationErrors()).isZero();
    }

    @Test
    void aToolClassCompiledWithoutTheProcessorIsReportedAndRefused(@TempDir Path dir) throws Exception {
        String name = "Unbound" + UUID.randomUUID().toString().replace("-", "");
        Path source = dir.resolve("demo/" + name + ".java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, "package demo;\n"
                + "import io.idempotent.annotations.*;\n"
                + "public class " + name + " {\n"
                + "    public static int runs;\n"
                + "    @IdempotentTool(key = \"send:{to}\", downstreamKey = false,"
                + " reconciler = io.idempotent.runtime.ManualReview.class, retry = Retry.NEVER)\n"
                + "    public String send(String to) { runs++; return \"sent \" + to; }\n"
                + "}\n");
        Path classes = dir.resolve("classes");
        int exit = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-proc:none", "-d", classes.toString(),
                "-cp", System.getProperty("java.class.path"), source.toString());
        assertThat(exit).as("javac exit code").isZero();

        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream stderr = System.err;
        Class<?> unbound;
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                getClass().getClassLoader())) {
            System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
            try {
                unbound = Class.forName("demo." + name, true, loader);
            } finally {
                System.setErr(stderr);
            }
            Object tool = unbound.getDeclaredConstructor().newInstance();
            Method send = unbound.getMethod("send", String.class);
            assertThatThrownBy(() -> {
                try {
                    send.invoke(tool, "ada@example.com");
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            }).isInstanceOf(MissingBindingException.class).hasMessageContaining("demo." + name)
                    .hasMessageContaining("annotationProcessorPaths");
            assertThat(unbound.getField("runs").getInt(null)).as("body runs").isZero();
        }
        assertThat(log.toString(StandardCharsets.UTF_8)).contains("[idempotent-agent] ERROR demo." + name)
                .contains("no generated binding demo." + name + "_IdempotentTools")
                .contains("idempotent-processor");
        assertThat(AgentStatus.transformationErrors()).isZero();
    }

    /**
     * A Kotlin companion's {@code @JvmStatic} tool, called from Java through the static bridge and
     * from Kotlin on the companion: one operation, one body run, the other call replayed.
     */
    @Test
    void aKotlinCompanionToolRunsOnceWhetherCalledThroughTheBridgeOrTheCompanion() {
        io.idempotent.it.tools.Effects.clear();
        try (IdempotentRuntime runtime = IdempotentRuntime.builder()
                .store("default", "jdbc:h2:mem:companion-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "")
                .build(); io.idempotent.runtime.Step ignored = io.idempotent.runtime.Step.begin("release-7")) {
            IdempotentRuntime previous = IdempotentRuntime.setGlobal(runtime);
            try {
                assertThat(io.idempotent.it.kotlin.CompanionTools.deploy("api")).isEqualTo("deployed:api");
                assertThat(io.idempotent.it.kotlin.CompanionTools.Companion.deploy("api")).isEqualTo("deployed:api");
                assertThat(io.idempotent.it.kotlin.CompanionTools.deploy("api")).isEqualTo("deployed:api");
                assertThat(io.idempotent.it.tools.Effects.count("deploy:api")).isEqualTo(1);
                assertThat(runtime.operations().find("deploy", "deploy:api:release-7")).isPresent();
            } finally {
                if (previous == null) {
                    io.idempotent.runtime.internal.RuntimeAccess.forgetGlobal();
                } else {
                    IdempotentRuntime.setGlobal(previous);
                }
            }
        }
        assertThat(AgentStatus.transformationErrors()).isZero();
    }

    @Test
    void theGlobalRuntimeIsTheOneTheAgentUses() {
        assertThat(IdempotentRuntime.global().describeStores()).singleElement().asString().contains("jdbc:h2:mem:");
    }
}
