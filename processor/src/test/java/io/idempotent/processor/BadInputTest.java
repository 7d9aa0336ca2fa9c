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
                        "String step)"));
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
