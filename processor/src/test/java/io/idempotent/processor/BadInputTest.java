package io.idempotent.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.stream.Stream;
import javax.tools.JavaFileObject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The release gate's bad inputs, one row each: the {@code bad/*.java} resource, the message (with
 * its id) and the line javac points at. Each compiles to exactly one error and no warning. The next mistake a user makes is one row to add.
 */
class BadInputTest {

    static Stream<Arguments> badInputs() {
        return Stream.of(
                row("StepParameter", "[IdemStepParameter] parameter step of StepParameter.refund has the name of"
                        + " {step}, which in the key \"refund:{invoiceId}:{step}\" is always the workflow's step",
                        "String step)"),
                row("PayloadIteratorComponent", "[IdemPayloadType] parameter order of PayloadIteratorComponent.ship"
                        + " has type bad.PayloadIteratorComponent.Order, whose order.items is a"
                        + " java.util.Iterator<bad.PayloadIteratorComponent.Item>, which cannot be hashed as part of"
                        + " the payload: hashing the payload would use it up, and the body would then see it empty;"
                        + " pass the values as a List, or mark the parameter @NotPayload", "ship(Order order)"),
                row("PayloadStreamProperty", "[IdemPayloadType] parameter batch of PayloadStreamProperty.importBatch"
                        + " has type bad.PayloadStreamProperty.Batch, whose batch.lines is a"
                        + " java.util.stream.Stream<java.lang.String>, which cannot be hashed as part of the payload:"
                        + " hashing the payload would use it up", "importBatch(Batch batch)"),
                row("PayloadSupplier", "[IdemPayloadType] parameter amountCents of PayloadSupplier.refund has type"
                        + " java.util.function.Supplier<java.lang.Long>, which cannot be hashed as part of the payload:"
                        + " a function or lambda hashes as {}, so a call with a changed one would replay the first"
                        + " call's result; pass the values it stands for", "Supplier<Long> amountCents"),
                row("PayloadSingleMethodInterface", "[IdemPayloadType] parameter rules of"
                        + " PayloadSingleMethodInterface.quote has type"
                        + " java.util.List<bad.PayloadSingleMethodInterface.PriceRule>, in which an element of rules"
                        + " is a bad.PayloadSingleMethodInterface.PriceRule, which cannot be hashed as part of the"
                        + " payload: a function or lambda hashes as {}", "List<PriceRule> rules"),
                row("PayloadCyclicType", "[IdemPayloadType] parameter tree of PayloadCyclicType.visit has type"
                        + " bad.PayloadCyclicType.Node, whose tree.leaf.onVisit is a java.lang.Runnable, which cannot"
                        + " be hashed as part of the payload: a function or lambda hashes as {}", "visit(Node tree)"));
    }

    private static Arguments row(String resource, String message, String line) {
        return Arguments.of(resource, message, line);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInputs")
    void isOneClearErrorOnTheLineThatIsWrong(String resource, String message, String line) {
        JavaFileObject file = JavaFileObjects.forResource("bad/" + resource + ".java");
        Compilation compilation = Compilations.compile("bad/" + resource + ".java");
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorCount(1);
        assertThat(compilation).hadWarningCount(0);
        assertThat(compilation).hadErrorContaining(message).inFile(file).onLineContaining(line);
    }
}
