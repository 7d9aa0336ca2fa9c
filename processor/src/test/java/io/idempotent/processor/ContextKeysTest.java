package io.idempotent.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import org.junit.jupiter.api.Test;

/**
 * Keys of tools with a framework context parameter: the binding reads the context only when the
 * key names an entry of it; an ordinary parameter named {@code context} is read as any other; a
 * key of every ordinary parameter and nothing else still collapses two calls into one.
 */
class ContextKeysTest {

    @Test
    void onlyAKeyThatNamesAnEntryReadsTheContext() throws Exception {
        Compilation compilation = Compilations.compile("good/ContextKeys.java", "frameworks/ToolContext.java");
        assertThat(compilation).succeededWithoutWarnings();
        String source = compilation.generatedSourceFile("good.ContextKeys_IdempotentTools").orElseThrow()
                .getCharContent(true).toString();
        String refund = source.substring(source.indexOf("class Tool0"), source.indexOf("class Tool1"));
        String credit = source.substring(source.indexOf("class Tool1"), source.indexOf("class Tool2"));
        String note = source.substring(source.indexOf("class Tool2"));
        assertThat(refund).doesNotContain("contextEntry");
        assertThat(credit).contains("private static Object contextEntry(Object[] args, String name)");
        // {context.id} of the parameter named context: its record component, not a framework entry.
        assertThat(note).doesNotContain("contextEntry").contains("\"context\", ((ContextKeys.Ticket) args[0])).id()");
    }

    @Test
    void aKeyOfEveryOrdinaryParameterBesideAContextIsAWarning() {
        Compilation compilation = Compilations.compile("bad/KeyCollapsesBesideContext.java",
                "frameworks/ToolContext.java");
        assertThat(compilation).succeeded();
        assertThat(compilation).hadWarningCount(1);
        assertThat(compilation).hadWarningContaining("[IdemKeyCollapses] key \"refund:{invoiceId}:{amountCents}\" is"
                + " made of every parameter of KeyCollapsesBesideContext.refund and nothing else")
                .inFile(JavaFileObjects.forResource("bad/KeyCollapsesBesideContext.java"))
                .onLineContaining("key = \"refund:{invoiceId}:{amountCents}\"");
    }
}
