package io.idempotent.processor;

import java.util.Locale;
import javax.tools.Diagnostic.Kind;

/**
 * Every message the processor reports, each with a stable id in brackets that users can search
 * for (and the README explains). The text says what is wrong and how to fix it.
 */
enum Diagnostic {
    KEY_EMPTY(Kind.ERROR, "IdemKeyEmpty",
            "key is empty: give the operation key template, for example \"refund:{invoiceId}:{step}\""),
    KEY_BRACES(Kind.ERROR, "IdemKeyBraces", "key \"%s\" has %s; write placeholders as {param}, {param.accessor} or {step}"),
    KEY_NO_PLACEHOLDER(Kind.ERROR, "IdemKeyConstant",
            "key \"%s\" has no placeholder, so every call of %s would be the same operation; add {param}, {param.accessor} or {step}"),
    KEY_PLACEHOLDER(Kind.ERROR, "IdemKeyPlaceholder",
            "key \"%s\" names {%s}, but %s has no parameter %s (parameters: %s; or {step} for the workflow step)"),
    STEP_PARAMETER(Kind.ERROR, "IdemStepParameter",
            "parameter %s of %s has the name of {step}, which in the key \"%s\" is always the workflow's step (Step.begin or the framework context), never an argument the model supplies; rename the parameter (and write {newName} in the key if its value belongs there)"),
    KEY_ACCESSOR(Kind.ERROR, "IdemKeyAccessor",
            "key \"%s\" names {%s}, but %s has no accessible record component, getter or public field %s (available: %s)"),
    CONTEXT_MISSING(Kind.ERROR, "IdemContextMissing",
            "key \"%s\" names {%s}, but %s has no framework context parameter whose entries it could read (Spring AI ToolContext, McpMeta or McpSyncRequestContext; LangChain4j InvocationParameters or InvocationContext; MCP CallToolRequest); add one, or pass the value as an ordinary parameter"),
    CONTEXT_AMBIGUOUS(Kind.ERROR, "IdemContextAmbiguous",
            "key \"%s\" names {%s}, but %s has %d framework context parameters with entries (%s), so it is not clear which one to read; keep one of them"),
    CONTEXT_TYPE(Kind.ERROR, "IdemContextType",
            "parameter %s of %s is a framework context (%s), but this version of it has no %s() to read its entries from; use a supported framework version (see docs/frameworks.md, \"Supported versions\")"),
    KEY_PART_TYPE(Kind.ERROR, "IdemKeyPartType",
            "key \"%s\" names {%s} of type %s, %s. A key part must render the same text on every call and every JVM: a string, an integral number, a boolean, an enum, a UUID, a BigDecimal, a java.time value other than ZonedDateTime, or an accessor chain that ends in one"),
    KEY_CONTROL(Kind.ERROR, "IdemKeyControl", "key \"%s\" contains a control character; keys may not hold them"),
    KEY_COLLAPSES(Kind.WARNING, "IdemKeyCollapses",
            "key \"%s\" is made of every parameter of %s and nothing else: two legitimate identical requests would collapse into one; add a decision identity such as {step} or an approval id"),
    NO_DOWNSTREAM_ANSWER(Kind.ERROR, "IdemNoDownstreamAnswer",
            "downstreamKey = false, and no reconciler: nothing can tell whether an uncertain call of %s happened. Set downstreamKey = true if the downstream deduplicates the key, or declare reconciler = YourReconciler.class (or ManualReview.class if a person decides)"),
    UNCERTAIN_RETRY(Kind.ERROR, "IdemUncertainRetry",
            "retry = Retry.UNCERTAIN re-runs uncertain calls of %s, which is safe only if the downstream deduplicates the key (downstreamKey = true) or a real reconciler asks it first (%s); use Retry.SAFE, or answer one of those"),
    DOWNSTREAM_RETENTION_MISSING(Kind.ERROR, "IdemDownstreamRetention",
            "downstreamKey = true needs downstreamRetention: how long the downstream remembers the key, as an ISO-8601 duration such as \"P1D\""),
    DURATION(Kind.ERROR, "IdemDuration", "%s = \"%s\" is not an ISO-8601 duration; write for example \"PT30S\", \"PT15M\" or \"P1D\""),
    LEASE_POSITIVE(Kind.ERROR, "IdemLeasePositive", "lease = \"%s\" must be positive"),
    LEASE_VS_DOWNSTREAM(Kind.ERROR, "IdemLeaseVsDownstream",
            "lease = \"%s\" must be shorter than downstreamRetention = \"%s\": a retry after the lease expired would reach a downstream that already forgot the key"),
    RETENTION_VS_LEASE(Kind.ERROR, "IdemRetentionVsLease", "retention = \"%s\" must be at least the lease (\"%s\")"),
    LEASE_TOO_SHORT(Kind.ERROR, "IdemLeaseTooShort",
            "lease = \"%s\" is %d ms as the store counts it; a lease must be at least one second (\"PT1S\"): a shorter one can end before the claim is even written, and a concurrent caller would take the key over and run the body too"),
    DURATION_TOO_LONG(Kind.ERROR, "IdemDurationTooLong",
            "%s = \"%s\" is longer than 100 years (\"P36525D\"), the most the store can add to the database's clock; give a shorter one"),
    DOWNSTREAM_RETENTION_UNUSED(Kind.ERROR, "IdemDownstreamRetentionUnused",
            "downstreamRetention = \"%s\" is given, but downstreamKey = false: the downstream does not deduplicate the key, so nothing would use the retention and it would be dropped; remove it, or set downstreamKey = true if the downstream does deduplicate the key"),
    APPROVAL_VALIDITY(Kind.ERROR, "IdemApprovalValidity",
            "approvalValidity = \"%s\" is %s; a grant must stay valid at least one second (\"PT1S\"): a shorter one would expire before the call that uses it could come"),
    APPROVAL_VALIDITY_UNUSED(Kind.ERROR, "IdemApprovalValidityUnused",
            "approvalValidity = \"%s\" is given, but approval = Approval.NONE: no operation of %s waits for a grant, so the validity would do nothing; remove it, or set approval = Approval.REQUIRED if a person must approve each operation"),
    TRANSACTIONAL_DOWNSTREAM_KEY(Kind.ERROR, "IdemTransactionalDownstreamKey", "%s: %s"),
    TRANSACTIONAL_RECONCILER(Kind.ERROR, "IdemTransactionalReconciler", "%s: %s"),
    TRANSACTIONAL_NOT_APPLIED_ON(Kind.ERROR, "IdemTransactionalNotAppliedOn", "%s: %s"),
    TRANSACTIONAL_BOUNDARY(Kind.ERROR, "IdemTransactionalBoundary", "%s: %s"),
    TRANSACTIONAL_APPROVAL(Kind.ERROR, "IdemTransactionalApproval", "%s: %s"),
    TRANSACTIONAL_ASYNC(Kind.ERROR, "IdemTransactionalAsync", "%s returns %s: %s"),
    OUTBOX_DESTINATION(Kind.ERROR, "IdemOutboxDestination",
            "%s: %s; name each destination its body sends to once, in 1 to 200 characters without control characters"),
    METHOD_SHAPE(Kind.ERROR, "IdemMethodShape", "@IdempotentTool method %s %s: the agent can only wrap a concrete, non-private method; %s"),
    TOOL_CLASS(Kind.ERROR, "IdemToolClass", "@IdempotentTool method %s is declared in %s; %s"),
    RESULT_TYPE(Kind.ERROR, "IdemResultType",
            "%s returns %s, which cannot be stored and replayed as JSON; return a value type (a record, a String, a collection of them, Optional, void)"),
    RESULT_READ_BACK(Kind.ERROR, "IdemResultReadBack",
            "%s returns %s, which cannot be read back from the store for a replay: %s is %s"),
    ASYNC_RESULT(Kind.ERROR, "IdemAsyncResult",
            "%s returns %s: the agent returns the runtime's own CompletableFuture or Mono in place of the tool's, so only CompletionStage<T>, CompletableFuture<T> and Reactor's Mono<T> themselves are supported, with a value T that is data; declare one of the three, with the value type itself"),
    FLUX_RESULT(Kind.ERROR, "IdemFluxResult",
            "%s returns %s: a Flux emits any number of values, but one operation key stands for one result that a retry replays; collect the values inside the tool and return them as a List"),
    PUBLISHER_RESULT(Kind.ERROR, "IdemPublisherResult",
            "%s returns %s: a publisher may emit any number of values, but one operation key stands for one result that a retry replays; return the result itself (a List for many values)"),
    FUTURE_RESULT(Kind.ERROR, "IdemFutureResult",
            "%s returns %s: a plain Future says when its value arrives only to a thread that blocks on it, so the runtime could not store the outcome when it arrives; return the result itself and let the caller run the tool on its own thread"),
    SUSPEND_FUNCTION(Kind.ERROR, "IdemSuspendFunction",
            "%s is a Kotlin suspend function (its last parameter is a kotlin.coroutines.Continuation): the agent cannot see when it resumes and ends, so its outcome could not be stored; make it a regular function that returns the result, and call it from the coroutine with withContext(Dispatchers.IO) with the step carried into the coroutine's context (io.idempotent.kotlin.StepContext from idempotent-kotlin, see docs/kotlin.md): Step is per thread"),
    PAYLOAD_TYPE(Kind.ERROR, "IdemPayloadType",
            "parameter %s of %s has type %s%s, which cannot be hashed as part of the payload: %s; %s, or mark the parameter @NotPayload if it does not describe the operation"),
    RECONCILER_CLASS(Kind.ERROR, "IdemReconcilerClass", "reconciler = %s.class %s"),
    RECONCILER_RESULT(Kind.ERROR, "IdemReconcilerResult",
            "reconciler = %s.class produces %s, which %s (returning %s) cannot return; implement Reconciler<%s>"),
    TOOL_NAME(Kind.ERROR, "IdemToolName", "%s (name \"%s\"): %s"),
    STORE_NAME(Kind.ERROR, "IdemStoreName", "%s; the runtime could not configure this tool's store"),
    DUPLICATE_NAME(Kind.ERROR, "IdemDuplicateName",
            "tool name \"%s\" is already used in store \"%s\" by %s; give one of them another name = \"...\""),
    NOT_APPLIED_ON_BROAD(Kind.ERROR, "IdemNotAppliedOnBroad",
            "notAppliedOn lists %s for %s, which covers failures of every cause, a timeout after the request was sent included: each would be taken as proof that nothing happened and run again; list only the exceptions that prove the downstream did nothing (a validation error, a declined card), or mark where the effect starts (effectBoundary = MARKED)"),
    NOT_APPLIED_ON_IO(Kind.WARNING, "IdemNotAppliedOnIo",
            "notAppliedOn lists %s for %s, but an I/O failure after the request was written (a timeout, a reset connection, a lost reply) does not prove that nothing happened downstream, and a retry may repeat the effect; list the exception that proves the request never left (java.net.ConnectException, java.net.UnknownHostException, or your client's own), or mark where the effect starts (effectBoundary = MARKED)"),
    NOT_PAYLOAD_OUTSIDE_TOOL(Kind.ERROR, "IdemNotPayloadOutsideTool",
            "@NotPayload on parameter %s of %s has no effect: %s is not an @IdempotentTool method, and only a tool's own parameters are left out of its payload hash; put @NotPayload on the tool method's parameter, or remove it"),
    TYPE_UNDEFINED(Kind.ERROR, "IdemTypeUndefined",
            "%s of %s has type %s, which is not defined even after every annotation processor ran; define or import it (a tool whose types another processor generates is checked once they exist)"),
    RUNTIME_MISSING(Kind.ERROR, "IdemRuntimeMissing",
            "the idempotent runtime (%s) is not on the compile class path, and the bindings of the tools need it; add io.idempotent:idempotent-runtime as a dependency (compile scope); nothing was generated"),
    MCP_HINT_STEP(Kind.WARNING, "IdemMcpHint",
            "%s says @McpAnnotations(idempotentHint = true), but its key \"%s\" uses {step}: a repeated call is answered without a second effect only under the same step, which an MCP client that reads the hint does not know to send; remove idempotentHint (IdempotentMcpTools lists the step's rule in the tool's _meta entry io.idempotent/step)"),
    MCP_HINT_ARGUMENTS(Kind.WARNING, "IdemMcpHint",
            "%s says @McpAnnotations(idempotentHint = false), but its key \"%s\" is built from the arguments alone: a call repeated with the same arguments is answered with the first result and has no second effect; remove idempotentHint (IdempotentMcpTools then lists it as true)"),
    PROCESSOR_BUG(Kind.ERROR, "IdemProcessorBug",
            "the idempotent-processor failed on this tool (%s); please report it with this message");

    private final Kind kind;
    private final String id;
    private final String format;

    Diagnostic(Kind kind, String id, String format) {
        this.kind = kind;
        this.id = id;
        this.format = format;
    }

    Kind kind() {
        return kind;
    }

    /** The id as shown in brackets. */
    String id() {
        return id;
    }

    /** The full message for these arguments. */
    String format(Object... args) {
        return "[" + id + "] " + String.format(Locale.ROOT, format, args);
    }
}
