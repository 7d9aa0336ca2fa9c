package io.idempotent.processor;

import java.util.List;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeMirror;

/**
 * One validated tool: the answers to the release gate's five questions, and what the binding
 * needs to carry them to the runtime. Only the validator creates it, and only for a tool without
 * errors; the writers never see anything else.
 *
 * @param reconciler the reconciler class, or null when none is declared
 * @param downstreamRetention the ISO-8601 text, or null when the downstream does not deduplicate
 *     (every duration's text is without blanks around it, as the gate parsed it)
 * @param approvalRequired whether a person must approve each operation ({@code Approval.REQUIRED})
 * @param approvalValidity the ISO-8601 text of how long a grant stays valid (the default when not
 *     written; meaningful only with {@code approvalRequired})
 * @param transactional whether the effect commits with the record ({@code transactional = true})
 * @param outbox the outbox destinations the body may send to ({@code outbox = {...}}), in declaration order
 * @param returnType the type of the result as it is stored and replayed: {@code T} of a
 *     {@code CompletionStage<T>}, {@code CompletableFuture<T>} or {@code Mono<T>}, else the
 *     method's return type
 */
record ToolModel(TypeElement toolClass, ExecutableElement method, String name, String store, String keyTemplate,
        List<KeyPart> keyParts, boolean downstreamKey, String downstreamRetention, String retry,
        TypeElement reconciler, boolean manualReview, List<TypeElement> notAppliedOn, String effectBoundary,
        String lease, String retention, boolean approvalRequired, String approvalValidity, boolean transactional,
        List<String> outbox, List<Parameter> parameters,
        TypeMirror returnType, String descriptor) {

    /**
     * A method parameter, by position.
     *
     * @param context the framework context kind, or null for an ordinary parameter
     */
    record Parameter(int index, String name, TypeMirror type, boolean payload, ContextParameter context) {
    }

    /** The one context parameter whose entries the key reads ({step}, {context.NAME}), or null. */
    Parameter contextSource() {
        return parameters.stream().filter(p -> p.context() != null && p.context().entrySource()).findFirst()
                .orElse(null);
    }

    /** The framework context parameters, in declaration order. */
    List<Parameter> context() {
        return parameters.stream().filter(p -> p.context() != null).toList();
    }

    /** The payload parameters, in declaration order. */
    List<Parameter> payload() {
        return parameters.stream().filter(Parameter::payload).toList();
    }

    /** Whether the key contains {step}. */
    boolean usesStep() {
        return keyParts.stream().anyMatch(p -> p instanceof KeyPart.StepKey);
    }

    /** Whether the key reads the context parameter's entries ({step} with a source, or {context.NAME}). */
    boolean readsContext() {
        return contextSource() != null && keyParts.stream()
                .anyMatch(p -> p instanceof KeyPart.StepKey || p instanceof KeyPart.ContextEntry);
    }
}
