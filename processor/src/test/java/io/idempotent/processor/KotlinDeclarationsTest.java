package io.idempotent.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.binding.ToolBindings;
import java.util.List;
import java.util.UUID;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Kotlin declarations as kapt shows them to javac ({@code good/KotlinTools.java} is such a stub):
 * a companion's {@code @JvmStatic} tool is one tool, bound on the companion's member, not also on
 * its static bridge; an {@code internal} tool's stored name is its Kotlin name, without the
 * module's {@code $kotlin_shapes} suffix, while the binding still finds the JVM method.
 */
class KotlinDeclarationsTest {

    private static Compilation compilation;

    // Each test compiles (not @BeforeAll): the mutation profile's PIT runs against a mutant only the
    // tests it saw run the mutated code, and it does not count code run in @BeforeAll.
    @BeforeEach
    void compile() {
        compilation = Compilations.compile("stubs/kotlin/Metadata.java", "stubs/kotlin/jvm/JvmStatic.java",
                "good/KotlinTools.java");
    }

    private static List<ToolBinding> tools(String binding) throws Exception {
        return ((ToolBindings) Compilations.load(compilation).loadClass(binding).getDeclaredConstructor()
                .newInstance()).tools();
    }

    @Test
    void aCompanionToolIsOneToolOnTheCompanionsMember() throws Exception {
        assertThat(compilation).succeededWithoutWarnings();
        assertThat(tools("good.KotlinTools_Companion_IdempotentTools")).singleElement()
                .satisfies(t -> assertThat(t.policy().name()).isEqualTo("deploy"))
                .satisfies(t -> assertThat(t.methodDescriptor()).isEqualTo("deploy(Ljava/lang/String;)Ljava/lang/String;"));
        assertThat(tools("good.KotlinTools_IdempotentTools")).extracting(t -> t.policy().name())
                .containsExactly("internalTool");
        String table = new String(compilation.generatedFile(StandardLocation.CLASS_OUTPUT,
                "META-INF/idempotent/tools.json").orElseThrow().openInputStream().readAllBytes(),
                java.nio.charset.StandardCharsets.UTF_8);
        assertThat(table).contains("\"class\": \"good.KotlinTools.Companion\"");
        assertThat(table.split("\"method\": \"deploy\\(", -1)).as("tools.json lists deploy once").hasSize(2);
    }

    @Test
    void anInternalToolIsStoredUnderItsKotlinNameAndRunsOnceThenReplays() throws Exception {
        ToolBinding internal = tools("good.KotlinTools_IdempotentTools").get(0);
        assertThat(internal.policy().name()).isEqualTo("internalTool");
        assertThat(internal.methodDescriptor()).isEqualTo("internalTool$kotlin_shapes(Ljava/lang/String;)Ljava/lang/String;");
        ClassLoader loader = Compilations.load(compilation);
        Class<?> toolsClass = loader.loadClass("good.KotlinTools");
        Object tools = toolsClass.getDeclaredConstructor().newInstance();
        java.lang.reflect.Method method = toolsClass.getMethod("internalTool$kotlin_shapes", String.class);
        ToolBinding binding = ((ToolBindings) loader.loadClass("good.KotlinTools_IdempotentTools")
                .getDeclaredConstructor().newInstance()).tools().get(0);
        try (IdempotentRuntime runtime = IdempotentRuntime.builder()
                .store("default", "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "").build();
                Step ignored = Step.begin("approved_17")) {
            Object[] args = {"svc"};
            Object first = runtime.call(binding, args, () -> method.invoke(tools, args));
            Object again = runtime.call(binding, args, () -> method.invoke(tools, args));
            assertThat(again).isEqualTo(first).isEqualTo("internal:svc");
            assertThat(toolsClass.getField("internalRuns").getInt(null)).isEqualTo(1);
            assertThat(runtime.operations().find("internalTool", "internal:svc:approved_17")).isPresent();
        }
    }
}
