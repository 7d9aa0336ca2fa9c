package io.idempotent.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;

/**
 * Results of each kind of type the gate meets: an array, a stage of {@code ? extends T} (stored as
 * {@code T}), and those it refuses because no concrete data type is known: a type variable, a stage
 * of {@code ?} or a raw stage (stored as Object), {@code ? super T}, an array of Object.
 */
class ResultTypeKindsTest {

    @Test
    void anArrayAndAStageOfAnUpperBoundedWildcardAreStoredAsTheirData() {
        Compilation compilation = Compilations.compile("resultkinds/GoodKinds.java");
        assertThat(compilation).succeededWithoutWarnings();
        assertThat(compilation).generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/idempotent/tools.json")
                .contentsAsUtf8String().contains("\"result\": \"java.lang.String[]\"");
        assertThat(compilation).generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/idempotent/tools.json")
                .contentsAsUtf8String().contains("\"result\": \"resultkinds.GoodKinds.Receipt\"");
    }

    @Test
    void resultsWithoutAConcreteDataTypeAreRefusedAtTheirMethod() {
        Compilation compilation = Compilations.compile("resultkinds/BadKinds.java");
        JavaFileObject bad = JavaFileObjects.forResource("resultkinds/BadKinds.java");
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorCount(5);
        assertThat(compilation).hadErrorContaining("[IdemResultType] BadKinds.generic returns T,").inFile(bad)
                .onLineContaining("T generic(");
        assertThat(compilation).hadErrorContaining("[IdemResultType] BadKinds.unbounded returns"
                + " java.util.concurrent.CompletionStage<?>,").inFile(bad).onLineContaining("unbounded(");
        assertThat(compilation).hadErrorContaining("[IdemResultType] BadKinds.raw returns"
                + " java.util.concurrent.CompletionStage,").inFile(bad).onLineContaining("raw(");
        assertThat(compilation).hadErrorContaining("[IdemResultType] BadKinds.lowerBounded returns"
                + " java.util.List<? super java.lang.String>,").inFile(bad).onLineContaining("lowerBounded(");
        assertThat(compilation).hadErrorContaining("[IdemResultType] BadKinds.objects returns"
                + " java.lang.Object[],").inFile(bad).onLineContaining("objects(");
    }
}
