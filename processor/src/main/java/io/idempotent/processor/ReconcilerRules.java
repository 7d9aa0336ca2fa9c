package io.idempotent.processor;

import java.util.List;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * The reconciler: the runtime is on the class path ({@code [IdemRuntimeMissing]}); the class is
 * defined ({@code [IdemTypeUndefined]}), concrete, static, public with a public no-argument
 * constructor and a {@code Reconciler} ({@code [IdemReconcilerClass]}); and what it produces fits
 * the method's return type ({@code [IdemReconcilerResult]}). Whether a reconciler answers the
 * release gate's questions is {@link ReleaseGateRules}'.
 */
final class ReconcilerRules {

    static final String RECONCILER = "io.idempotent.runtime.Reconciler";
    static final String MANUAL_REVIEW = "io.idempotent.runtime.ManualReview";

    private final Elements elements;
    private final Types types;
    private final TypeChecks typeChecks;
    private final UndefinedTypes undefinedTypes;

    ReconcilerRules(Elements elements, Types types, TypeChecks typeChecks, UndefinedTypes undefinedTypes) {
        this.elements = elements;
        this.types = types;
        this.typeChecks = typeChecks;
        this.undefinedTypes = undefinedTypes;
    }

    /** The class that {@code reconciler} names, or null when none is declared. */
    TypeElement declared(ToolAnnotation annotation) {
        Object v = annotation.get("reconciler");
        if (v instanceof DeclaredType type) {
            return (TypeElement) type.asElement();
        }
        return null;
    }

    static boolean isManualReview(TypeElement reconciler) {
        return reconciler != null && reconciler.getQualifiedName().contentEquals(MANUAL_REVIEW);
    }

    /** Reports the reconciler if it is not defined, and says whether it was. */
    boolean reportIfUndefined(TypeElement reconciler, ToolAnnotation annotation, String display) {
        return undefinedTypes.reportIfUndefined(reconciler.asType(), "reconciler", display, annotation.element,
                annotation.mirror, annotation.explicitValue("reconciler"));
    }

    /** Reports what keeps the generated binding from creating the reconciler or returning what it produces. */
    void check(ToolAnnotation values, TypeElement reconciler, boolean manualReview, TypeMirror returnType,
            String display, TypeElement toolClass) {
        TypeElement contract = elements.getTypeElement(RECONCILER);
        if (contract == null) {
            values.report(Diagnostic.RUNTIME_MISSING, "reconciler", RECONCILER);
            return;
        }
        String name = reconciler.getQualifiedName().toString();
        if (reconciler.getKind() != ElementKind.CLASS || reconciler.getModifiers().contains(Modifier.ABSTRACT)) {
            values.report(Diagnostic.RECONCILER_CLASS, "reconciler", name, "is not a concrete class; the runtime"
                    + " creates it with new, so give a class that is not abstract");
            return;
        }
        if (reconciler.getNestingKind() == NestingKind.MEMBER && !reconciler.getModifiers().contains(Modifier.STATIC)) {
            values.report(Diagnostic.RECONCILER_CLASS, "reconciler", name, "is an inner class; make it static");
            return;
        }
        boolean visible = reconciler.getModifiers().contains(Modifier.PUBLIC)
                || (!reconciler.getModifiers().contains(Modifier.PRIVATE)
                        && elements.getPackageOf(reconciler).equals(elements.getPackageOf(toolClass)));
        boolean publicConstructor = ElementFilter.constructorsIn(reconciler.getEnclosedElements()).stream()
                .anyMatch(c -> c.getParameters().isEmpty() && c.getModifiers().contains(Modifier.PUBLIC));
        if (!visible || !publicConstructor) {
            values.report(Diagnostic.RECONCILER_CLASS, "reconciler", name, "has no public no-argument constructor"
                    + " that the generated binding can call; add one (and make the class public)");
            return;
        }
        TypeMirror produced = reconcilerResult(reconciler.asType(), types.erasure(contract.asType()));
        if (produced == null) {
            values.report(Diagnostic.RECONCILER_CLASS, "reconciler", name, "does not implement " + RECONCILER);
            return;
        }
        if (manualReview) {
            return; // it never answers APPLIED, so it never produces a result
        }
        boolean fits;
        if (returnType.getKind() == TypeKind.VOID) {
            String producedName = types.erasure(produced).toString();
            fits = producedName.equals("java.lang.Void") || producedName.equals("java.lang.Object");
        } else {
            fits = produced.getKind() == TypeKind.DECLARED
                    && !types.erasure(produced).toString().equals("java.lang.Object")
                    && types.isAssignable(produced, typeChecks.boxed(returnType));
        }
        if (!fits) {
            String wanted = returnType.getKind() == TypeKind.VOID ? "Void" : typeChecks.boxed(returnType).toString();
            values.report(Diagnostic.RECONCILER_RESULT, "reconciler", name, produced, display, returnType, wanted);
        }
    }

    /** The R of {@code Reconciler<R>} among the supertypes of {@code type}, or null. */
    private TypeMirror reconcilerResult(TypeMirror type, TypeMirror contract) {
        for (TypeMirror supertype : types.directSupertypes(type)) {
            if (types.isSameType(types.erasure(supertype), contract)) {
                List<? extends TypeMirror> arguments = ((DeclaredType) supertype).getTypeArguments();
                return arguments.isEmpty() ? elements.getTypeElement("java.lang.Object").asType() : arguments.get(0);
            }
            TypeMirror found = reconcilerResult(supertype, contract);
            if (found != null) {
                return found;
            }
        }
        return null;
    }
}
