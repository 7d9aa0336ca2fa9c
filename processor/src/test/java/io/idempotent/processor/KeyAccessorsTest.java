package io.idempotent.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.binding.ToolBindings;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Which members of an argument a key placeholder reads ({@code {order.code}}): a getter, a boolean
 * {@code isX}, a public instance field; not a static field, a package-private member of another
 * package, or an {@code isX} that is not boolean. The argument type ({@code keyaccessors/other/Order})
 * lives in another package than the tools, as it usually does.
 */
class KeyAccessorsTest {

    @Test
    void aGetterABooleanIsAndAPublicFieldAreReadByTheBinding() throws Exception {
        Compilation compilation = Compilations.compile("keyaccessors/GoodAccessors.java",
                "keyaccessors/other/Order.java");
        assertThat(compilation).succeededWithoutWarnings();
        ClassLoader loader = Compilations.load(compilation);
        ToolBinding ship = ((ToolBindings) loader.loadClass("keyaccessors.GoodAccessors_IdempotentTools")
                .getDeclaredConstructor().newInstance()).tools().get(0);
        Object order = loader.loadClass("keyaccessors.other.Order").getDeclaredConstructor().newInstance();
        try (Step ignored = Step.begin("s1")) {
            assertThat(ship.key(new Object[] {order})).isEqualTo("ship:c7:true:EU:s1");
        }
    }

    @Test
    void membersTheBindingCannotReadAreRefusedAndTheReadableOnesListed() {
        Compilation compilation = Compilations.compile("keyaccessors/BadAccessors.java",
                "keyaccessors/other/Order.java");
        JavaFileObject bad = JavaFileObjects.forResource("keyaccessors/BadAccessors.java");
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorCount(5);
        // Listed: the getter and boolean isX by property name; a non-boolean isNamed, get() and is()
        // by their own names (no property after the prefix); the public instance field. Not listed:
        // the static field, the package-private field and method of another package.
        String available = " (available: code, get, is, isNamed, paid, region)";
        String[][] rows = {
            {"a:{order.number}:{step}", "order.number", "number"},
            {"b:{order.named}:{step}", "order.named", "named"},
            {"c:{order.note}:{step}", "order.note", "note"},
            {"d:{order.DEFAULT_REGION}:{step}", "order.DEFAULT_REGION", "DEFAULT_REGION"},
            {"e:{order.hidden}:{step}", "order.hidden", "hidden"},
        };
        for (String[] row : rows) {
            assertThat(compilation).hadErrorContaining("[IdemKeyAccessor] key \"" + row[0] + "\" names {" + row[1]
                    + "}, but order (keyaccessors.other.Order) has no accessible record component, getter or public"
                    + " field " + row[2] + available).inFile(bad).onLineContaining("key = \"" + row[0] + "\"");
        }
    }
}
