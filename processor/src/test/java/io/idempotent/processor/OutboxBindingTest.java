package io.idempotent.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.binding.ToolBindings;
import java.util.List;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;

/**
 * {@code outbox = {...}} names the destinations a body may send to: the binding carries them to
 * the runtime (which refuses any other) and the release-gate table shows them, so the choice
 * "sends through the outbox" is visible where {@code send} alone, a call in the body, is not.
 */
class OutboxBindingTest {

    @Test
    void theDeclaredDestinationsReachTheBindingAndTheTable() throws Exception {
        Compilation compilation = Compilations.compile("good/NotifyingLedgerTools.java");
        assertThat(compilation).succeededWithoutWarnings();
        ToolBindings bindings = (ToolBindings) Compilations.load(compilation)
                .loadClass("good.NotifyingLedgerTools_IdempotentTools").getDeclaredConstructor().newInstance();
        ToolBinding entry = bindings.tools().get(0);
        assertThat(entry.policy().outbox()).containsExactly("customer-notifications", "audit");
        assertThat(entry.policy().transactional()).isTrue();
        assertThat(compilation).generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/idempotent/tools.json")
                .contentsAsUtf8String().contains("\"outbox\": [\"customer-notifications\", \"audit\"]");
    }

    @Test
    void aToolThatDeclaresNoDestinationShowsAnEmptyOutbox() throws Exception {
        Compilation compilation = Compilations.compile("good/LedgerTools.java");
        assertThat(compilation).succeeded();
        ToolBindings bindings = (ToolBindings) Compilations.load(compilation).loadClass("good.LedgerTools_IdempotentTools")
                .getDeclaredConstructor().newInstance();
        assertThat(bindings.tools().get(0).policy().outbox()).isEqualTo(List.of());
        assertThat(compilation).generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/idempotent/tools.json")
                .contentsAsUtf8String().contains("\"outbox\": []");
    }
}
