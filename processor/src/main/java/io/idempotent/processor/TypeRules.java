package io.idempotent.processor;

import java.util.List;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeMirror;

/**
 * The payload and argument types, and the result's: each parameter's type is defined
 * ({@code [IdemTypeUndefined]}), a payload argument can be hashed without being used up or losing
 * what it says ({@code [IdemPayloadType]}), and the result can be stored and read back for a
 * replay ({@code [IdemResultType]}, {@code [IdemResultReadBack]}). A {@code CompletionStage<T>},
 * {@code CompletableFuture<T>} or Reactor {@code Mono<T>} stores {@code T}, checked as a synchronous
 * result is. Other asynchronous results are refused each by its kind: another single later value
 * (a custom future, a stage of a stage: {@code [IdemAsyncResult]}),
 * a Flux or other publisher of many values ({@code [IdemFluxResult]}, {@code [IdemPublisherResult]}),
 * a plain {@code Future} ({@code [IdemFutureResult]}) and a Kotlin suspend function
 * ({@code [IdemSuspendFunction]}).
 */
final class TypeRules {

    private final TypeChecks typeChecks;
    private final PayloadTypeCheck payloadTypes;
    private final ResultTypeCheck resultTypes;
    private final UndefinedTypes undefinedTypes;
    private final Reporter reporter;

    TypeRules(ProcessingEnvironment env, TypeChecks typeChecks, UndefinedTypes undefinedTypes, Reporter reporter) {
        this.typeChecks = typeChecks;
        this.payloadTypes = new PayloadTypeCheck(env, typeChecks);
        this.resultTypes = new ResultTypeCheck(env, typeChecks);
        this.undefinedTypes = undefinedTypes;
        this.reporter = reporter;
    }

    /** Reports the parameter's type if it is not defined, and says whether it was. */
    boolean reportIfUndefined(VariableElement parameter, String display) {
        return undefinedTypes.reportIfUndefined(parameter.asType(), "parameter " + parameter.getSimpleName(), display,
                parameter, null, null);
    }

    /** Reports a payload parameter whose value cannot be hashed as it is. */
    void checkPayload(VariableElement parameter, String display) {
        PayloadTypeCheck.Finding unhashable = payloadTypes.find(parameter.asType(),
                parameter.getSimpleName().toString());
        if (unhashable != null) {
            reporter.report(Diagnostic.PAYLOAD_TYPE, parameter, null, null, parameter.getSimpleName(), display,
                    parameter.asType(), where(unhashable.path(), unhashable.type(),
                            parameter.getSimpleName().toString()),
                    unhashable.reason().why(), unhashable.reason().fix());
        }
    }

    /**
     * Reports a Kotlin suspend function, and says whether it is one: its result and its
     * continuation parameter are then not checked (each would be a second, misleading error).
     */
    boolean reportIfSuspendFunction(ExecutableElement method, String display) {
        if (!typeChecks.isSuspendFunction(method)) {
            return false;
        }
        List<? extends VariableElement> parameters = method.getParameters();
        reporter.report(Diagnostic.SUSPEND_FUNCTION, parameters.get(parameters.size() - 1), null, null, display);
        return true;
    }

    /**
     * The type a call's result is stored and replayed as: {@code T} of an asynchronous
     * {@code CompletionStage<T>}, {@code CompletableFuture<T>} or {@code Mono<T>}, else the return type.
     */
    TypeMirror storedResult(TypeMirror returnType) {
        TypeMirror value = typeChecks.asyncValueType(returnType);
        return value != null ? value : returnType;
    }

    /**
     * Reports a result that cannot be stored and replayed: the stored type ({@link #storedResult})
     * is checked, the messages name the method's return type.
     */
    void checkResult(ExecutableElement method, TypeMirror returnType, String display) {
        if (undefinedTypes.reportIfUndefined(returnType, "the result", display, method, null, null)) {
            return;
        }
        TypeMirror stored = storedResult(returnType);
        TypeChecks.Problem problem = typeChecks.check(stored);
        Diagnostic async = switch (problem) {
            case ASYNC -> Diagnostic.ASYNC_RESULT;
            case FLUX -> Diagnostic.FLUX_RESULT;
            case PUBLISHER -> Diagnostic.PUBLISHER_RESULT;
            case FUTURE -> Diagnostic.FUTURE_RESULT;
            case NONE, NOT_DATA -> null;
        };
        if (async != null) {
            reporter.report(async, method, null, null, display, returnType);
        } else if (problem == TypeChecks.Problem.NOT_DATA || typeChecks.mentionsTypeVariable(stored)) {
            reporter.report(Diagnostic.RESULT_TYPE, method, null, null, display, returnType);
        } else {
            ResultTypeCheck.Finding unreadable = resultTypes.find(stored);
            if (unreadable != null) {
                String what = unreadable.path().equals(ResultTypeCheck.ROOT) ? unreadable.type().toString()
                        : unreadable.path().endsWith("[]") ? "an element of " + unreadable.path().substring(0,
                                unreadable.path().length() - 2) + " (" + unreadable.type() + ")"
                                : unreadable.path() + " (" + unreadable.type() + ")";
                reporter.report(Diagnostic.RESULT_READ_BACK, method, null, null, display, returnType, what,
                        unreadable.why());
            }
        }
    }

    /**
     * Where inside a parameter a problem is, for a message: nothing when it is the whole thing
     * ({@code root}), else {@code ", whose order.items is a java.util.Iterator<...>"}.
     */
    private static String where(String path, TypeMirror type, String root) {
        if (path.equals(root)) {
            return "";
        }
        return path.endsWith("[]") ? ", in which an element of " + path.substring(0, path.length() - 2) + " is a "
                + type : ", whose " + path + " is a " + type;
    }
}
