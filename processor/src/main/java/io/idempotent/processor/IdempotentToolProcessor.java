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
    private KotlinDeclarations kotlin;
    private final List<ToolModel> allTools = new ArrayList<>();
    private final Map<String, ExecutableElement> namesByStore = new HashMap<>();
    /**
     * Tool classes whose types were not all defined yet (another processor generates them), by
     * name: validated again in the next round, and reported only in the last (AutoValue's
     * deferredTypeNames). Elements are looked up again by name, as a later round may hold new ones.
     */
    private final Set<String> deferredClasses = new LinkedHashSet<>();
    private boolean anyErrors;
    private boolean runtimeMissingReported;

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
        kotlin = new KotlinDeclarations(env);
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
            if (runtimeMissing(round)) {
                return true;
            }
            Map<TypeElement, List<ToolModel>> byClass = new LinkedHashMap<>();
            Set<TypeElement> failedClasses = new LinkedHashSet<>();
            for (Map.Entry<TypeElement, List<Element>> owned : toolsByClass(round).entrySet()) {
                TypeElement owner = owned.getKey();
                reporter.hold();
                List<Optional<ToolModel>> validated = new ArrayList<>();
                boolean undefinedTypes = false;
                for (Element element : owned.getValue()) {
                    validated.add(validateSafely(element));
                    undefinedTypes |= validator.sawUndefinedType();
                }
                if (undefinedTypes && !round.processingOver() && !owner.getQualifiedName().isEmpty()) {
                    // Not an error yet: another processor may generate the types in this round.
                    reporter.discard();
                    deferredClasses.add(owner.getQualifiedName().toString());
                    continue;
                }
                reporter.release();
                for (Optional<ToolModel> tool : validated) {
                    if (tool.isPresent() && unique(tool.get())) {
                        byClass.computeIfAbsent(tool.get().toolClass(), c -> new ArrayList<>()).add(tool.get());
                    } else {
                        failedClasses.add(owner);
                        anyErrors = true;
                    }
                }
            }
            byClass.keySet().removeAll(failedClasses);
            for (Map.Entry<TypeElement, List<ToolModel>> e : byClass.entrySet()) {
                writeSafely(e.getKey(), e.getValue());
            }
            reportNotPayloadOutsideTools(round);
            if (round.processingOver() && !allTools.isEmpty() && !anyErrors) {
                releaseGate.write(allTools);
            }
        } catch (Throwable t) {
            // process() never throws: a bug becomes an error, and javac goes on reporting the rest.
            reporter.release();
            processingEnv.getMessager().printMessage(Kind.ERROR, Diagnostic.PROCESSOR_BUG.format(stackTrace(t)));
        }
        // The annotations are ours: no other processor needs to see them.
        return true;
    }

    /**
     * Whether the runtime, which every generated binding uses, is missing from the compile class
     * path; then one error says so (on the first tool) and nothing is validated or generated, as
     * each binding would only add javac's errors about the runtime's types.
     */
    private boolean runtimeMissing(RoundEnvironment round) {
        if (processingEnv.getElementUtils().getTypeElement(BindingWriter.RUNTIME_TYPE) != null) {
            return false;
        }
        if (!runtimeMissingReported) {
            for (Element tool : round.getElementsAnnotatedWith(IdempotentTool.class)) {
                reporter.report(Diagnostic.RUNTIME_MISSING, tool, null, null, BindingWriter.RUNTIME_TYPE);
                runtimeMissingReported = true;
                anyErrors = true;
                break;
            }
        }
        return true;
    }

    /** This round's tool methods and those of the classes deferred in earlier rounds, by class. */
    private Map<TypeElement, List<Element>> toolsByClass(RoundEnvironment round) {
        Map<TypeElement, List<Element>> byClass = new LinkedHashMap<>();
        for (String name : deferredClasses) {
            TypeElement type = processingEnv.getElementUtils().getTypeElement(name);
            if (type != null) {
                for (Element member : type.getEnclosedElements()) {
                    if (member.getAnnotation(IdempotentTool.class) != null && !isCompanionBridge(member)) {
                        byClass.computeIfAbsent(type, t -> new ArrayList<>()).add(member);
                    }
                }
            }
        }
        deferredClasses.clear();
        for (Element element : round.getElementsAnnotatedWith(IdempotentTool.class)) {
            if (element.getEnclosingElement() instanceof TypeElement owner && !isCompanionBridge(element)) {
                byClass.computeIfAbsent(owner, t -> new ArrayList<>()).add(element);
            }
        }
        return byClass;
    }

    /** Kotlin's static bridge of a companion's tool, which is the same tool: not a second one. */
    private boolean isCompanionBridge(Element element) {
        return element instanceof ExecutableElement method && kotlin.isCompanionBridge(method);
    }

    /** {@code @NotPayload} leaves a parameter out of a tool's payload; anywhere else it is a mistake. */
    private void reportNotPayloadOutsideTools(RoundEnvironment round) {
        for (Element parameter : round.getElementsAnnotatedWith(NotPayload.class)) {
            Element method = parameter.getEnclosingElement();
            if (method == null || method.getAnnotation(IdempotentTool.class) != null) {
                continue;
            }
            AnnotationMirror mirror = parameter.getAnnotationMirrors().stream()
                    .filter(m -> ((TypeElement) m.getAnnotationType().asElement()).getQualifiedName()
                            .contentEquals(NotPayload.class.getCanonicalName()))
                    .findFirst().orElse(null);
            Element type = method.getEnclosingElement();
            String display = (type == null ? "" : type.getSimpleName() + ".") + method.getSimpleName();
            reporter.report(Diagnostic.NOT_PAYLOAD_OUTSIDE_TOOL, parameter, mirror, null, parameter.getSimpleName(),
                    display, method.getSimpleName());
            anyErrors = true;
        }
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
