package io.idempotent.processor;

import com.google.auto.service.AutoService;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.NotPayload;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic.Kind;

/**
 * The compile-time release gate. For every {@code @IdempotentTool} method it checks that the five
 * questions have answers (who creates the key, where it is stored, what rejects changed
 * arguments, whether the downstream deduplicates or can be reconciled, which failures may retry)
 * and fails the build on the annotation value that is wrong; for every class whose tools are all
 * valid it generates the binding the runtime and the agent use; and it writes the answers to
 * {@code META-INF/idempotent/tools.json}.
 */
@AutoService(Processor.class)
public final class IdempotentToolProcessor extends AbstractProcessor {

    private static final String ANNOTATION = IdempotentTool.class.getCanonicalName();

    private Reporter reporter;
    private ToolValidator validator;
    private BindingWriter bindings;
    private ReleaseGateWriter releaseGate;
    private final List<ToolModel> allTools = new ArrayList<>();
    private final Map<String, ExecutableElement> namesByStore = new HashMap<>();
    private boolean anyErrors;

    /** Created by javac through the service loader. */
    public IdempotentToolProcessor() {
    }

    @Override
    public synchronized void init(ProcessingEnvironment env) {
        super.init(env);
        reporter = new Reporter(env.getMessager());
        validator = new ToolValidator(env, reporter);
        bindings = new BindingWriter(env);
        releaseGate = new ReleaseGateWriter(env.getFiler());
    }

    @Override
    public Set<String> getSupportedAnnotationTypes() {
        return Set.of(ANNOTATION, NotPayload.class.getCanonicalName());
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
        return SourceVersion.latestSupported();
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
        try {
            Map<TypeElement, List<ToolModel>> byClass = new LinkedHashMap<>();
            Set<TypeElement> failedClasses = new LinkedHashSet<>();
            for (Element element : round.getElementsAnnotatedWith(IdempotentTool.class)) {
                Optional<ToolModel> tool = validateSafely(element);
                TypeElement owner = element.getEnclosingElement() instanceof TypeElement t ? t : null;
                if (tool.isPresent() && unique(tool.get())) {
                    byClass.computeIfAbsent(tool.get().toolClass(), c -> new ArrayList<>()).add(tool.get());
                } else if (owner != null) {
                    failedClasses.add(owner);
                    anyErrors = true;
                }
            }
            byClass.keySet().removeAll(failedClasses);
            for (Map.Entry<TypeElement, List<ToolModel>> e : byClass.entrySet()) {
                writeSafely(e.getKey(), e.getValue());
            }
            if (round.processingOver() && !allTools.isEmpty() && !anyErrors) {
                releaseGate.write(allTools);
            }
        } catch (Throwable t) {
            // process() never throws: a bug becomes an error, and javac goes on reporting the rest.
            processingEnv.getMessager().printMessage(Kind.ERROR, Diagnostic.PROCESSOR_BUG.format(stackTrace(t)));
        }
        // The annotations are ours: no other processor needs to see them.
        return true;
    }

    private Optional<ToolModel> validateSafely(Element element) {
        try {
            if (!(element instanceof ExecutableElement method)) {
                return Optional.empty();
            }
            return validator.validate(method, mirror(method));
        } catch (RuntimeException e) {
            reporter.report(Diagnostic.PROCESSOR_BUG, element, null, null, stackTrace(e));
            return Optional.empty();
        }
    }

    private void writeSafely(TypeElement toolClass, List<ToolModel> tools) {
        try {
            bindings.write(toolClass, tools);
            allTools.addAll(tools);
        } catch (Exception e) {
            anyErrors = true;
            reporter.report(Diagnostic.PROCESSOR_BUG, toolClass, null, null, "writing the binding: " + e);
        }
    }

    /** Tool names are unique per store within the compilation. */
    private boolean unique(ToolModel tool) {
        ExecutableElement previous = namesByStore.putIfAbsent(tool.store() + "\u0000" + tool.name(), tool.method());
        if (previous == null) {
            return true;
        }
        AnnotationMirror mirror = mirror(tool.method());
        javax.lang.model.element.AnnotationValue name = mirror.getElementValues().entrySet().stream()
                .filter(e -> e.getKey().getSimpleName().contentEquals("name")).map(Map.Entry::getValue).findFirst()
                .orElse(null);
        reporter.report(Diagnostic.DUPLICATE_NAME, tool.method(), mirror, name, tool.name(), tool.store(),
                ((TypeElement) previous.getEnclosingElement()).getQualifiedName() + "." + previous.getSimpleName());
        return false;
    }

    private static AnnotationMirror mirror(Element element) {
        for (AnnotationMirror m : element.getAnnotationMirrors()) {
            if (((TypeElement) m.getAnnotationType().asElement()).getQualifiedName().contentEquals(ANNOTATION)) {
                return m;
            }
        }
        throw new IllegalStateException("no @IdempotentTool on " + element);
    }

    private static String stackTrace(Throwable t) {
        StringWriter out = new StringWriter();
        t.printStackTrace(new PrintWriter(out));
        String text = out.toString();
        return text.length() > 2000 ? text.substring(0, 2000) + "..." : text;
    }
}
