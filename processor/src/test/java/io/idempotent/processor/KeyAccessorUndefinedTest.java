package io.idempotent.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Types that stay undefined inside others: at the end of a key's accessor chain (reported as
 * undefined, not as a key part without a stable text), as a type argument or an array's element
 * (reported as undefined, not as a payload that cannot be hashed). javac names the missing symbols too.
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

    @Test
    void anUndefinedTypeArgumentOrArrayElementIsReportedAsUndefined() {
        Compilation compilation = Compilations.compile("bad/TypeUndefinedInside.java");
        JavaFileObject file = JavaFileObjects.forResource("bad/TypeUndefinedInside.java");
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorContaining("[IdemTypeUndefined] parameter invoices of TypeUndefinedInside.refund"
                + " has type java.util.List<NoSuchInvoice>, which is not defined").inFile(file)
                .onLineContaining("List<NoSuchInvoice> invoices");
        assertThat(compilation).hadErrorContaining("[IdemTypeUndefined] parameter lines of TypeUndefinedInside.refund"
                + " has type NoSuchLine[], which is not defined").inFile(file).onLineContaining("NoSuchLine[] lines");
        assertThat(compilation.errors()).filteredOn(d -> d.getMessage(null).contains("[Idem")).hasSize(2);
    }
}
