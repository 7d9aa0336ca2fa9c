package io.idempotent.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Where the read-back check looks inside a result, and where it does not: each refused result is
 * named with the place of the type Jackson could not create (an element, a property, the value
 * inside an Optional) on its own method; what Jackson neither writes nor reads, or creates its own
 * way, is accepted.
 */
class ResultReadBackTest {

    private static final String READ_BACK = ", which cannot be read back from the store for a replay: ";
    private static final String NO_CREATOR = " is a class with no creator to read it back with";

    @Test
    void eachUnreadableTypeIsNamedWhereItSitsOnItsMethod() {
        Compilation compilation = Compilations.compile("readback/Refused.java");
        JavaFileObject refused = JavaFileObjects.forResource("readback/Refused.java");
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorCount(8);
        assertThat(compilation).hadWarningCount(0);
        refusal(compilation, refused, "array", "readback.Refused.Report[]",
                "an element of result (readback.Refused.Report)" + NO_CREATOR);
        refusal(compilation, refused, "wildcard", "java.util.List<? extends readback.Refused.Report>",
                "an element of result (readback.Refused.Report)" + NO_CREATOR);
        refusal(compilation, refused, "mapValue", "java.util.Map<java.lang.String,readback.Refused.Report>",
                "an element of result (readback.Refused.Report)" + NO_CREATOR);
        // An Optional holds its value in place: the value is the result itself, not an element.
        refusal(compilation, refused, "optional", "java.util.Optional<readback.Refused.Report>",
                "readback.Refused.Report" + NO_CREATOR);
        refusal(compilation, refused, "inner", "readback.Refused.Inner",
                "readback.Refused.Inner is an inner class, which needs an instance of its enclosing class to be"
                        + " created; make it static");
        // The record component's type as a member of Page<Report>, not List<T>.
        refusal(compilation, refused, "page", "readback.Refused.Page<readback.Refused.Report>",
                "an element of result.items (readback.Refused.Report)" + NO_CREATOR);
        refusal(compilation, refused, "holder", "readback.Refused.Holder",
                "result.report (readback.Refused.Report)" + NO_CREATOR);
        // A builder that cannot itself be created cannot build.
        refusal(compilation, refused, "built", "readback.Refused.Built", "readback.Refused.Built" + NO_CREATOR);
    }

    private static void refusal(Compilation compilation, JavaFileObject file, String method, String returnType,
            String what) {
        assertThat(compilation).hadErrorContaining("[IdemResultReadBack] Refused." + method + " returns " + returnType
                + READ_BACK + what).inFile(file).onLineContaining(" " + method + "(String id)");
    }

    @Test
    void whatJacksonNeverReadsOrReadsItsOwnWayIsAccepted() {
        Compilation compilation = Compilations.compile("stubs/kotlin/Metadata.java",
                "stubs/com/fasterxml/jackson/module/kotlin/KotlinModule.java", "readback/Accepted.java");
        assertThat(compilation).succeededWithoutWarnings();
    }
}
