package io.idempotent.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.binding.ToolBindings;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.util.List;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code CompletionStage<T>}, {@code CompletableFuture<T>} and Reactor's {@code Mono<T>} are
 * accepted; {@code T}, generics kept, is the stored result type in the binding and in tools.json.
 */
class AsyncToolBindingTest {

    private static Compilation compilation;
    private static ClassLoader loader;

    // Each test compiles (not @BeforeAll): the mutation profile's PIT runs against a mutant only the
    // tests it saw run the mutated code, and it does not count code run in @BeforeAll.
    @BeforeEach
    void compile() {
        compilation = Compilations.compile("good/AsyncTools.java");
        loader = Compilations.load(compilation);
    }

    private static ToolBinding tool(String name) throws Exception {
        ToolBindings bindings = (ToolBindings) loader.loadClass("good.AsyncTools_IdempotentTools")
                .getDeclaredConstructor().newInstance();
        return bindings.tools().stream().filter(t -> t.policy().name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void theThreeAsynchronousFormsCompileWithoutWarnings() {
        assertThat(compilation).succeededWithoutWarnings();
    }

    @Test
    void theStoredResultTypeIsTheValueTypeWithItsGenerics() throws Exception {
        Class<?> tools = loader.loadClass("good.AsyncTools");
        assertThat(tool("refund").resultType()).isEqualTo(loader.loadClass("good.AsyncTools$Refund"));
        Method tag = tools.getDeclaredMethod("tag", String.class);
        ParameterizedType stage = (ParameterizedType) tag.getGenericReturnType();
        assertThat(tool("tag").resultType()).isEqualTo(stage.getActualTypeArguments()[0]);
        assertThat(tool("tag").resultType().getTypeName()).isEqualTo("java.util.List<java.lang.String>");
        assertThat(tool("notifyCustomer").resultType()).isEqualTo(Void.class);
    }

    @Test
    void theDescriptorIsTheMethodsOwnSoTheAgentFindsTheBinding() throws Exception {
        assertThat(List.of(tool("refund").methodDescriptor(), tool("tag").methodDescriptor(),
                tool("notifyCustomer").methodDescriptor())).containsExactly(
                        "refund(Ljava/lang/String;J)Ljava/util/concurrent/CompletableFuture;",
                        "tag(Ljava/lang/String;)Ljava/util/concurrent/CompletionStage;",
                        "notifyCustomer(Ljava/lang/String;)Lreactor/core/publisher/Mono;");
    }

    @Test
    void theReleaseGateTableNamesTheStoredResultType() {
        for (String result : List.of("good.AsyncTools.Refund", "java.util.List<java.lang.String>", "java.lang.Void")) {
            assertThat(compilation).generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/idempotent/tools.json")
                    .contentsAsUtf8String().contains("\"result\": \"" + result + "\"");
        }
    }
}
