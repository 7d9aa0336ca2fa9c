package io.idempotent.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.binding.ToolBindings;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;

/**
 * A transactional tool ({@code transactional = true}) needs no downstream key and no reconciler:
 * its answer to the release gate's fourth question is that the effect commits with the record. The
 * binding carries it to the runtime and the release-gate table shows it.
 */
class TransactionalBindingTest {

    @Test
    void aTransactionalToolCompilesCleanAndItsBindingAndTableSaySo() throws Exception {
        Compilation compilation = Compilations.compile("good/LedgerTools.java");
        assertThat(compilation).succeededWithoutWarnings();
        ToolBindings bindings = (ToolBindings) Compilations.load(compilation).loadClass("good.LedgerTools_IdempotentTools")
                .getDeclaredConstructor().newInstance();
        ToolBinding entry = bindings.tools().get(0);
        assertThat(entry.policy().transactional()).isTrue();
        assertThat(entry.policy().downstreamKey()).isFalse();
        assertThat(entry.policy().reconciler()).isEmpty();
        assertThat(compilation).generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/idempotent/tools.json")
                .contentsAsUtf8String().contains("\"transactional\": true");
    }
}
