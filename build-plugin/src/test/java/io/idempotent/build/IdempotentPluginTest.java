package io.idempotent.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.build.tools.NoteTools;
import io.idempotent.runtime.MissingBindingException;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.tools.ToolProvider;
import net.bytebuddy.build.Plugin;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.loading.ByteArrayClassLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plugin's refusals at build time and the runtime's refusal of a class woven for another
 * weave format (what an older or newer idempotent-build would have written). The protocol itself is
 * tested on woven classes in the javaagent module ({@code WovenAtBuildTest}), beside the agent's.
 */
class IdempotentPluginTest {

    @TempDir
    Path dir;

    @Test
    void aClassWovenForAnotherWeaveFormatRefusesItsCallsBeforeTheBody() throws Exception {
        File classes = folderOf(NoteTools.class);
        Plugin.Engine.Summary summary = engine().apply(new Plugin.Engine.Source.ForFolder(classes),
                new Plugin.Engine.Target.ForFolder(dir.toFile()),
                List.of(new Plugin.Factory.Simple(new IdempotentPlugin(classes, 0))));
        assertThat(summary.getFailed()).isEmpty();
        byte[] woven = Files.readAllBytes(dir.resolve(NoteTools.class.getName().replace('.', '/') + ".class"));
        Class<?> type = new ByteArrayClassLoader.ChildFirst(getClass().getClassLoader(),
                Map.of(NoteTools.class.getName(), woven)).loadClass(NoteTools.class.getName());
        Object tools = type.getDeclaredConstructor().newInstance();
        int before = NoteTools.RUNS.get();

        assertThatThrownBy(() -> type.getMethod("addNote", String.class, String.class).invoke(tools, "t-1", "x"))
                .cause()
                .isInstanceOf(MissingBindingException.class)
                .hasMessageContaining(NoteTools.class.getName() + " was woven at build time by idempotent-build")
                .hasMessageContaining("for weave format 0, but this idempotent-runtime reads weave format 1")
                .hasMessageContaining("Weave it with the io.idempotent:idempotent-build of the same version");
        assertThat(NoteTools.RUNS.get()).isEqualTo(before);
    }

    @Test
    void aToolClassCompiledWithoutTheProcessorFailsTheBuildNamingTheFix() throws Exception {
        Path source = dir.resolve("src/demo/Unbound.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, """
                package demo;
                import io.idempotent.annotations.*;
                public class Unbound {
                    @IdempotentTool(key = "send:{to}", downstreamKey = false,
                            reconciler = io.idempotent.runtime.ManualReview.class, retry = Retry.NEVER)
                    public String send(String to) { return "sent " + to; }
                }
                """);
        Path classes = dir.resolve("classes");
        int exit = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-proc:none", "-d", classes.toString(),
                "-cp", System.getProperty("java.class.path"), source.toString());
        assertThat(exit).as("javac exit code").isZero();

        Plugin.Engine.Summary summary = engine().withoutErrorHandlers().apply(
                new Plugin.Engine.Source.ForFolder(classes.toFile()), new Plugin.Engine.Target.ForFolder(
                        dir.resolve("woven").toFile()),
                List.of(new Plugin.Factory.Simple(new IdempotentPlugin(classes.toFile()))));

        Map<TypeDescription, List<Throwable>> failed = summary.getFailed();
        assertThat(failed).hasSize(1);
        assertThat(failed.values().iterator().next()).singleElement().asString()
                .contains("demo.Unbound has @IdempotentTool methods but no generated binding"
                        + " demo.Unbound_IdempotentTools: it was compiled without the idempotent-processor")
                .contains("Add io.idempotent:idempotent-processor to the compiler's annotationProcessorPaths");
    }

    private Plugin.Engine engine() {
        return new Plugin.Engine.Default().with(ClassFileLocator.ForClassLoader.of(getClass().getClassLoader()));
    }

    private static File folderOf(Class<?> type) throws Exception {
        return new File(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
