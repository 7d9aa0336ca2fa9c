package io.idempotent.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import org.junit.jupiter.api.Test;

/** A tool's binding reads the framework context only when its key names an entry of it. */
class ContextNotReadTest {

    @Test
    void onlyTheToolWhoseKeyReadsTheContextHasAContextReader() throws Exception {
        Compilation compilation = Compilations.compile("good/ContextNotRead.java", "frameworks/ToolContext.java");
        assertThat(compilation).succeededWithoutWarnings();
        String source = compilation.generatedSourceFile("good.ContextNotRead_IdempotentTools").orElseThrow()
                .getCharContent(true).toString();
        String refund = source.substring(source.indexOf("class Tool0"), source.indexOf("class Tool1"));
        String credit = source.substring(source.indexOf("class Tool1"));
        assertThat(refund).doesNotContain("contextEntry");
        assertThat(credit).contains("private static Object contextEntry(Object[] args, String name)");
    }
}
