package io.idempotent.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import io.idempotent.runtime.binding.ToolBinding;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The generated binding's public constants, one per tool, named after the tool: a name that is no
 * Java identifier, or that names the class's own list, is prefixed; names that make the same
 * constant are numbered. Its result types, for arrays of plain and of generic types, and its
 * {@code @Generated} mark where the source level has it.
 */
class BindingConstantsTest {

    private static Map<String, String> toolNamesByConstant(Compilation compilation, String binding) throws Exception {
        Class<?> type = Compilations.load(compilation).loadClass(binding);
        Map<String, String> names = new LinkedHashMap<>();
        for (Field f : type.getDeclaredFields()) {
            if (Modifier.isPublic(f.getModifiers()) && f.getType() == ToolBinding.class) {
                names.put(f.getName(), ((ToolBinding) f.get(null)).policy().name());
            }
        }
        return names;
    }

    @Test
    void eachToolHasAConstantOfItsOwnThatCompiles() throws Exception {
        Compilation compilation = Compilations.compile("good/ConstantNames.java");
        assertThat(compilation).succeededWithoutWarnings();
        assertThat(toolNamesByConstant(compilation, "good.ConstantNames_IdempotentTools")).containsExactly(
                Map.entry("TOOL_3DS_CHECK", "3ds_check"),
                Map.entry("TOOLS_TOOL", "tools"),
                Map.entry("REFUND_V2", "refund-v2"),
                Map.entry("REFUND_V2_2", "refund.v2"),
                Map.entry("REFUND_V2_3", "refund v2"),
                Map.entry("LINES", "lines"),
                Map.entry("PAGES", "pages"));
    }

    @Test
    void anArrayResultIsItsClassAndAnArrayOfAGenericTypeItsFullType() throws Exception {
        Compilation compilation = Compilations.compile("good/ConstantNames.java");
        assertThat(compilation).succeededWithoutWarnings();
        String source = compilation.generatedSourceFile("good.ConstantNames_IdempotentTools").orElseThrow()
                .getCharContent(true).toString();
        assertThat(source).contains("RESULT_TYPE = String[].class;")
                .contains("RESULT_TYPE = new ResultType<List<String>[]>() {\n");
        ClassLoader loader = Compilations.load(compilation);
        Class<?> tools = loader.loadClass("good.ConstantNames");
        Class<?> binding = loader.loadClass("good.ConstantNames_IdempotentTools");
        assertThat(((ToolBinding) binding.getField("LINES").get(null)).resultType()).isEqualTo(String[].class);
        assertThat(((ToolBinding) binding.getField("PAGES").get(null)).resultType())
                .isEqualTo(tools.getMethod("pages", String.class).getGenericReturnType());
    }

    @Test
    void aToolNamedWithoutALatinLetterStillCompiles() throws Exception {
        Compilation compilation = Compilations.compile("good/UnicodeToolName.java");
        assertThat(compilation).succeededWithoutWarnings();
        assertThat(toolNamesByConstant(compilation, "good.UnicodeToolName_IdempotentTools"))
                .containsExactly(Map.entry("TOOL__", "返金"));
    }

    @Test
    void theBindingIsMarkedGeneratedFromJava9OnWhereTheAnnotationExists() throws Exception {
        // javax.annotation.processing.Generated is Java 9's: source level 8 gets no such mark.
        for (String release : List.of("8", "9")) {
            Compilation compilation = Compiler.javac().withProcessors(new IdempotentToolProcessor())
                    .withOptions("-Xlint:all,-processing,-options", "-implicit:class", "-source", release, "-target",
                            release)
                    .compile(JavaFileObjects.forResource("stale/Billing.java"));
            assertThat(compilation).succeededWithoutWarnings();
            String source = compilation.generatedSourceFile("stale.Billing_IdempotentTools").orElseThrow()
                    .getCharContent(true).toString();
            if (release.equals("8")) {
                assertThat(source).doesNotContain("@Generated");
            } else {
                assertThat(source).contains("@Generated(\"io.idempotent.processor.IdempotentToolProcessor\")");
            }
        }
    }
}
