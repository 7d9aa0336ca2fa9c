package io.idempotent.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.binding.ToolBindings;
import org.junit.jupiter.api.Test;

/**
 * Key placeholders accept only types whose text form is stable and documented (one negative test
 * per kind that is refused), and the generated binding renders each through the runtime's one
 * formatter.
 */
class KeyPartTypesTest {

    private static void assertKeyPartError(String name, String message, String line) {
        Compilation compilation = Compilations.compile("bad/" + name + ".java");
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorCount(1);
        assertThat(compilation).hadErrorContaining("[IdemKeyPartType] " + message)
                .inFile(JavaFileObjects.forResource("bad/" + name + ".java")).onLineContaining(line);
    }

    @Test
    void anArrayIsRefused() {
        assertKeyPartError("KeyPartArray", "key \"upload:{bytes}:{step}\" names {bytes} of type byte[], an array: its"
                + " text is its identity, a new key on every call", "key = \"upload:{bytes}:{step}\"");
    }

    @Test
    void aCollectionIsRefused() {
        assertKeyPartError("KeyPartCollection", "key \"tag:{tags}:{step}\" names {tags} of type"
                + " java.util.Set<java.lang.String>, a collection: its text follows its iteration order, which may"
                + " differ between JVMs", "key = \"tag:{tags}:{step}\"");
    }

    @Test
    void aFloatingPointNumberIsRefused() {
        assertKeyPartError("KeyPartFloatingPoint", "key \"charge:{amount}:{step}\" names {amount} of type double, a"
                + " floating-point number: its text differs between JDK versions", "key = \"charge:{amount}:{step}\"");
    }

    @Test
    void aZonedDateTimeIsRefused() {
        assertKeyPartError("KeyPartZonedDateTime", "key \"meeting:{at}:{step}\" names {at} of type"
                + " java.time.ZonedDateTime, whose text depends on the JVM's time-zone rules; pass an Instant or an"
                + " OffsetDateTime", "key = \"meeting:{at}:{step}\"");
    }

    @Test
    void aValueObjectWithoutAnAccessorIsRefused() {
        assertKeyPartError("KeyPartValueObject", "key \"refund:{invoice}:{step}\" names {invoice} of type"
                + " bad.KeyPartValueObject.Invoice, which has no documented stable text form (only its toString());"
                + " name a stable part of it with an accessor, such as {invoice.id}", "key = \"refund:{invoice}:{step}\"");
    }

    @Test
    void anAccessorChainMustEndInAStableType() {
        assertKeyPartError("KeyPartAccessorChain", "key \"refund:{invoice.id}:{invoice.amount}:{step}\" names"
                + " {invoice.amount} of type java.lang.Double, a floating-point number",
                "key = \"refund:{invoice.id}:{invoice.amount}:{step}\"");
    }

    @Test
    void everyStableTypeIsAcceptedAndRenderedInItsDocumentedForm() throws Exception {
        Compilation compilation = Compilations.compile("good/KeyTypes.java");
        assertThat(compilation).succeededWithoutWarnings();
        ClassLoader loader = Compilations.load(compilation);
        ToolBinding binding = ((ToolBindings) loader.loadClass("good.KeyTypes_IdempotentTools")
                .getDeclaredConstructor().newInstance()).tools().get(0);
        Object[] args = (Object[]) loader.loadClass("good.KeyTypes").getMethod("sample").invoke(null);
        try (Step ignored = Step.begin("approved_17")) {
            assertThat(binding.key(args)).isEqualTo("t:inv 842:sb:x:-1:3:42:-7:9:123456789012345678901234567890:true"
                    + ":EU:123e4567-e89b-12d3-a456-426614174000:12.5:2026-12-03T10:15:30Z:2026-12-03"
                    + ":2026-12-03T10:15:00:10:15:30.5:2026-12-03T10:15:00+01:00:10:15:00Z:2026-12:2026:--12-03"
                    + ":PT1H30M:P14D:EU:1000:approved_17");
        }
    }
}
