package io.idempotent.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import org.junit.jupiter.api.Test;

/**
 * A key whose accessor chain ends in a type that stays undefined: reported as undefined (javac
 * names the missing symbol too), not as a key part without a stable text.
 */
class KeyAccessorUndefinedTest {

    @Test
    void anUndefinedTypeAtTheEndOfAnAccessorChainIsReportedAsUndefined() {
        Compilation compilation = Compilations.compile("bad/KeyAccessorUndefined.java");
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorContaining("cannot find symbol");
        assertThat(compilation).hadErrorContaining("[IdemTypeUndefined] {invoice.number} in the key of"
                + " KeyAccessorUndefined.refund has type NoSuchNumber, which is not defined")
                .inFile(JavaFileObjects.forResource("bad/KeyAccessorUndefined.java"))
                .onLineContaining("key = \"refund:{invoice.number}:{step}\"");
        assertThat(compilation.errors()).filteredOn(d -> d.getMessage(null).contains("[Idem")).hasSize(1);
    }
}
