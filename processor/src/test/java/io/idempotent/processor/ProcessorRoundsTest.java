package io.idempotent.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import io.idempotent.runtime.binding.ToolBindings;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
import javax.tools.JavaCompiler;
import javax.tools.StandardLocation;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The processor among javac's rounds and other processors: it claims its annotations (with or
 * without the runtime on the class path), writes no binding for a class with a duplicate tool
 * name, and a round that holds back one tool class's
 * diagnostics (its types are generated later) still reports a misplaced {@code @NotPayload}, at
 * the annotation itself.
 */
class ProcessorRoundsTest {

    private static final String TOOL = "io.idempotent.annotations.IdempotentTool";
    private static final String NOT_PAYLOAD = "io.idempotent.annotations.NotPayload";

    /** A processor of every annotation: records those it is offered. */
    private static final class Later extends AbstractProcessor {
        final List<String> offered = new ArrayList<>();

        @Override
        public Set<String> getSupportedAnnotationTypes() {
            return Set.of("*");
        }

        @Override
        public SourceVersion getSupportedSourceVersion() {
            return SourceVersion.latestSupported();
        }

        @Override
        public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
            annotations.forEach(a -> offered.add(a.getQualifiedName().toString()));
            return false;
        }
    }

    @Test
    void theProcessorClaimsItsAnnotationsSoLaterProcessorsAreNotOfferedThem() {
        Later later = new Later();
        Compilation compilation = Compiler.javac().withProcessors(new IdempotentToolProcessor(), later)
                .withOptions("-Xlint:all,-processing").compile(JavaFileObjects.forResource("bad/NotPayloadOutsideTool.java"));
        assertThat(compilation).hadErrorContaining("[IdemNotPayloadOutsideTool]");
        assertThat(later.offered).doesNotContain(TOOL, NOT_PAYLOAD);
    }

    @Test
    void aClassWithAToolNameUsedTwiceGetsNoBinding(@TempDir Path out) throws Exception {
        // javac itself, writing to a directory: a failed compilation's files stay visible there.
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> classPath = new ArrayList<>();
        for (Class<?> type : List.of(io.idempotent.annotations.IdempotentTool.class, ToolBindings.class)) {
            classPath.add(Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        }
        List<String> errors = new ArrayList<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, null)) {
            List<File> sources = new ArrayList<>();
            for (String name : List.of("bad/DuplicateName.java", "resultkinds/GoodKinds.java")) {
                sources.add(new File(getClass().getClassLoader().getResource(name).toURI()));
            }
            JavaCompiler.CompilationTask task = javac.getTask(null, files,
                    d -> errors.add(d.getMessage(Locale.ROOT)),
                    List.of("-d", out.toString(), "-s", out.toString(), "-cp", String.join(File.pathSeparator, classPath)),
                    null, files.getJavaFileObjectsFromFiles(sources));
            task.setProcessors(List.of(new IdempotentToolProcessor()));
            assertThat(task.call()).isFalse();
        }
        assertThat(errors).as(String.join("\n", errors)).anyMatch(m -> m.startsWith("[IdemDuplicateName]"));
        // The other class's tools are fine: its binding is written. Not the duplicate's, nor the table.
        assertThat(out.resolve("resultkinds/GoodKinds_IdempotentTools.java")).exists();
        assertThat(out.resolve("bad/DuplicateName_IdempotentTools.java")).doesNotExist();
        assertThat(out.resolve("META-INF/idempotent/tools.json")).doesNotExist();
    }

    @Test
    void withoutTheRuntimeTheProcessorStillClaimsItsAnnotations() throws Exception {
        File annotations = new File(io.idempotent.annotations.IdempotentTool.class.getProtectionDomain()
                .getCodeSource().getLocation().toURI());
        Later later = new Later();
        Compilation compilation = Compiler.javac().withProcessors(new IdempotentToolProcessor(), later)
                .withClasspath(List.of(annotations)).compile(JavaFileObjects.forResource("bad/RuntimeMissing.java"));
        assertThat(compilation).hadErrorContaining("[IdemRuntimeMissing]");
        assertThat(later.offered).doesNotContain(TOOL);
    }

    @Test
    void aMisplacedNotPayloadIsReportedAtItsAnnotationInARoundThatDefersAToolClass() {
        // UsesGeneratedTypes is deferred in round 1 (its types come from GeneratingProcessor), the
        // round in which the @NotPayload below another annotation is found.
        Compilation compilation = Compilations.compile(List.of(new GeneratingProcessor()),
                "deferred/UsesGeneratedTypes.java", "bad/NotPayloadBelowAnother.java");
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorCount(1);
        assertThat(compilation).hadErrorContaining("[IdemNotPayloadOutsideTool] @NotPayload on parameter requestId of"
                + " NotPayloadBelowAnother.lookup has no effect: lookup is not an @IdempotentTool method")
                .inFile(JavaFileObjects.forResource("bad/NotPayloadBelowAnother.java")).onLineContaining("@NotPayload");
    }

    @Test
    void aBindingThatCannotBeWrittenIsAnErrorOnItsToolClass() {
        Compilation compilation = Compilations.compile("stale/Billing.java", "stale/Billing_IdempotentTools.java");
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorCount(1);
        assertThat(compilation).hadErrorContaining("[IdemProcessorBug] the idempotent-processor failed on this tool"
                + " (writing the binding: javax.annotation.processing.FilerException: Attempt to recreate a file for"
                + " type stale.Billing_IdempotentTools)").inFile(JavaFileObjects.forResource("stale/Billing.java"))
                .onLineContaining("public class Billing");
    }

    /** Another processor that writes the release-gate table's file first. */
    private static final class TableWriter extends AbstractProcessor {
        private boolean written;

        @Override
        public Set<String> getSupportedAnnotationTypes() {
            return Set.of("*");
        }

        @Override
        public SourceVersion getSupportedSourceVersion() {
            return SourceVersion.latestSupported();
        }

        @Override
        public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
            if (!written) {
                written = true;
                try (var out = processingEnv.getFiler().createResource(StandardLocation.CLASS_OUTPUT, "",
                        "META-INF/idempotent/tools.json").openWriter()) {
                    out.write("{}");
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
            return false;
        }
    }

    @Test
    void aFailureOutsideAnyToolIsOneErrorWithItsShortenedStackTrace() {
        Compilation compilation = Compilations.compile(List.of(new TableWriter()), "resultkinds/GoodKinds.java");
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorCount(1);
        String message = compilation.errors().get(0).getMessage(Locale.ROOT);
        assertThat(message).startsWith("[IdemProcessorBug] the idempotent-processor failed on this tool"
                + " (javax.annotation.processing.FilerException: Attempt to reopen a file for path")
                .contains("\tat io.idempotent.processor.ReleaseGateWriter.write(")
                .endsWith("...); please report it with this message");
        // The trace is cut at 2000 characters, long before its end in JUnit's frames.
        assertThat(message).doesNotContain("org.junit.platform");
    }
}
