package io.idempotent.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.List;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;

/**
 * What the gate accepts as proof that nothing happened ({@code notAppliedOn}), where
 * {@code @NotPayload} means something, and tools whose types another processor generates.
 */
class ReleaseGateScopeTest {

    @Test
    void notAppliedOnRefusesExceptionsThatEveryFailureIs() {
        Compilation compilation = Compilations.compile("bad/NotAppliedOnBroad.java");
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorCount(1);
        assertThat(compilation).hadErrorContaining("[IdemNotAppliedOnBroad] notAppliedOn lists java.lang.Exception for"
                + " NotAppliedOnBroad.refund, which covers failures of every cause, a timeout after the request was"
                + " sent included: each would be taken as proof that nothing happened and run again")
                .inFile(JavaFileObjects.forResource("bad/NotAppliedOnBroad.java"))
                .onLineContaining("notAppliedOn = {IllegalArgumentException.class, Exception.class}");
    }

    @Test
    void notAppliedOnWarnsOnIoExceptionsThatDoNotProveNothingWasSent() {
        Compilation compilation = Compilations.compile("bad/NotAppliedOnIo.java");
        assertThat(compilation).succeeded();
        assertThat(compilation).hadWarningCount(1);
        assertThat(compilation).hadWarningContaining("[IdemNotAppliedOnIo] notAppliedOn lists"
                + " java.net.SocketTimeoutException for NotAppliedOnIo.refund, but an I/O failure after the request"
                + " was written (a timeout, a reset connection, a lost reply) does not prove that nothing happened"
                + " downstream").inFile(JavaFileObjects.forResource("bad/NotAppliedOnIo.java"))
                .onLineContaining("notAppliedOn = java.net.SocketTimeoutException.class");
    }

    @Test
    void notPayloadOutsideAToolIsAnError() {
        Compilation compilation = Compilations.compile("bad/NotPayloadOutsideTool.java");
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorCount(1);
        assertThat(compilation).hadErrorContaining("[IdemNotPayloadOutsideTool] @NotPayload on parameter requestId of"
                + " NotPayloadOutsideTool.lookup has no effect: lookup is not an @IdempotentTool method")
                .inFile(JavaFileObjects.forResource("bad/NotPayloadOutsideTool.java"))
                .onLineContaining("@NotPayload String requestId) { return invoiceId; }");
    }

    @Test
    void toolsWhoseTypesAnotherProcessorGeneratesAreCheckedInTheNextRound() throws Exception {
        Compilation compilation = Compilations.compile(List.of(new GeneratingProcessor()),
                "deferred/UsesGeneratedTypes.java");
        assertThat(compilation).succeededWithoutWarnings();
        assertThat(compilation.generatedSourceFile("deferred.UsesGeneratedTypes_IdempotentTools").orElseThrow()
                .getCharContent(true).toString()).contains("\"refund:\"", ".id()", ".customer()",
                        "GeneratedReceipt.class");
        assertThat(compilation.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/idempotent/tools.json")
                .orElseThrow().getCharContent(true).toString()).contains("\"refund\"", "\"note\"");
    }

    @Test
    void aTypeThatStaysUndefinedIsReportedOnceNotAsAFalsePayloadOrAccessorError() {
        Compilation compilation = Compilations.compile("bad/TypeUndefined.java");
        JavaFileObject file = JavaFileObjects.forResource("bad/TypeUndefined.java");
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorContaining("[IdemTypeUndefined] parameter invoice of TypeUndefined.refund has"
                + " type NoSuchInvoice, which is not defined even after every annotation processor ran")
                .inFile(file).onLineContaining("NoSuchInvoice invoice");
        assertThat(compilation).hadErrorContaining("cannot find symbol").inFile(file);
        assertThat(compilation.errors()).extracting(d -> d.getMessage(null))
                .noneMatch(m -> m.contains("[IdemPayloadType]") || m.contains("[IdemKeyAccessor]")
                        || m.contains("[IdemKeyPartType]") || m.contains("[IdemProcessorBug]"));
        assertThat(compilation.errors()).filteredOn(d -> d.getMessage(null).contains("[Idem")).hasSize(1);
        assertThat(compilation.diagnostics()).noneMatch(d -> d.getKind() == Diagnostic.Kind.WARNING);
    }

    @Test
    void resultsAndPayloadsThatReadBackAndHashWholeAreAccepted() {
        // Trees, type information, creators, enums, containers, Iterable and Comparable: no error, no warning.
        assertThat(Compilations.compile("good/ReadableShapes.java")).succeededWithoutWarnings();
    }

    @Test
    void withoutTheRuntimeOnTheClassPathOneErrorNamesTheDependencyAndNothingIsGenerated() throws Exception {
        // Only the annotations on the class path, as in a build that forgot idempotent-runtime.
        java.io.File annotations = new java.io.File(io.idempotent.annotations.IdempotentTool.class
                .getProtectionDomain().getCodeSource().getLocation().toURI());
        Compilation compilation = com.google.testing.compile.Compiler.javac()
                .withProcessors(new IdempotentToolProcessor()).withClasspath(List.of(annotations))
                .compile(JavaFileObjects.forResource("bad/RuntimeMissing.java"));
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorCount(1);
        assertThat(compilation).hadErrorContaining("[IdemRuntimeMissing] the idempotent runtime"
                + " (io.idempotent.runtime.binding.ToolBindings) is not on the compile class path, and the bindings"
                + " of the tools need it; add io.idempotent:idempotent-runtime as a dependency")
                .inFile(JavaFileObjects.forResource("bad/RuntimeMissing.java"))
                .onLineContaining("public String refund");
    }
}
