package io.idempotent.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaFileObject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The release gate's bad inputs, one row each: the {@code bad/*.java} resource, the message (with
 * its id) and the line javac points at. Each compiles to exactly one error and no warning. The next mistake a user makes is one row to add.
 */
class BadInputTest {

    static Stream<Arguments> badInputs() {
        return Stream.of(
                row("KeyEmpty", "[IdemKeyEmpty] key is empty",
                        "key = \"\""),
                row("KeyBraces", "[IdemKeyBraces] key \"refund:{invoiceId\" has an unclosed '{' at index 7",
                        "key = \"refund:{invoiceId\""),
                row("KeyConstant", "[IdemKeyConstant] key \"refund\" has no placeholder, so every call of"
                        + " KeyConstant.refund would be the same operation",
                        "key = \"refund\""),
                row("KeyPlaceholder", "[IdemKeyPlaceholder] key \"refund:{invoice}\" names {invoice}, but"
                        + " KeyPlaceholder.issueRefund has no parameter invoice (parameters: invoiceId, approvalId",
                        "key = \"refund:{invoice}\""),
                row("KeyAccessor", "[IdemKeyAccessor] key \"refund:{invoice.number}:{step}\" names {invoice.number},"
                        + " but invoice (bad.KeyAccessor.Invoice) has no accessible record component, getter or public field"
                        + " number (available: amountCents, id)",
                        "key = \"refund:{invoice.number}:{step}\""),
                row("KeyControl", "[IdemKeyControl] key \"refund:{invoiceId}:{step}\t\" contains a control character",
                        "key = \"refund:{invoiceId}:{step}\\t\""),
                row("KeyStepAccessor", "[IdemKeyAccessor] key \"refund:{invoiceId}:{step.id}\" names {step.id}, but"
                        + " the step key (a String) has no accessible record component, getter or public field id"
                        + " (available: none)", "key = \"refund:{invoiceId}:{step.id}\""),
                row("KeyPrimitiveAccessor", "[IdemKeyAccessor] key \"refund:{amountCents.value}:{step}\" names"
                        + " {amountCents.value}, but amountCents (long) has no accessible record component, getter or"
                        + " public field value (available: none: long has no accessors)",
                        "key = \"refund:{amountCents.value}:{step}\""),
                // {context} alone names neither a context entry nor a parameter.
                row("KeyContextAlone", "[IdemKeyPlaceholder] key \"refund:{invoiceId}:{context}\" names {context}, but"
                        + " KeyContextAlone.refund has no parameter context (parameters: invoiceId, amountCents;",
                        "key = \"refund:{invoiceId}:{context}\""),
                // No ordinary parameter at all: the key cannot be "every parameter", so no collapse warning.
                row("KeyPlaceholderOnlyContext", "[IdemKeyPlaceholder] key \"ping:{target}\" names {target}, but"
                        + " KeyPlaceholderOnlyContext.ping has no parameter target (parameters: toolContext",
                        "key = \"ping:{target}\"", "frameworks/ToolContext.java"),
                row("KeyPartTypeVariable", "[IdemKeyPartType] key \"note:{id}:{hint}\" names {hint} of type T, whose"
                        + " value's text is decided only at run time; name a stable part of it with an accessor, such as"
                        + " {hint.id}", "key = \"note:{id}:{hint}\""),
                row("ContextMissing", "[IdemContextMissing] key \"refund:{invoiceId}:{context.approvalId}\" names"
                        + " {context.approvalId}, but ContextMissing.issueRefund has no framework context parameter",
                        "key = \"refund:{invoiceId}:{context.approvalId}\""),
                row("StoreNameDotted", "[IdemStoreName] store name \"billing.eu\" cannot be configured",
                        "store = \"billing.eu\""),
                row("StoreNameEmpty", "[IdemStoreName] a store name must not be empty",
                        "store = \"\""),
                row("ToolNameTooLong", "[IdemToolName] ToolNameTooLong.refund (name \"refund_xxx",
                        "name = \"refund_x"),
                row("ToolNameTooLong", "the tool name has 201 characters, more than the 200 the store's tool column"
                        + " takes",
                        "name = \"refund_x"),
                row("TransactionalDownstreamKey", "[IdemTransactionalDownstreamKey] TransactionalDownstreamKey.creditNote:"
                        + " transactional = true says the effect is a write in the store's own database",
                        "downstreamKey = true"),
                row("TransactionalReconciler", "[IdemTransactionalReconciler] TransactionalReconciler.creditNote:"
                        + " transactional = true: a crash rolls the body's writes back with the claim",
                        "reconciler = ManualReview.class"),
                row("TransactionalNotAppliedOn", "[IdemTransactionalNotAppliedOn] TransactionalNotAppliedOn.creditNote:"
                        + " transactional = true: every failure rolls the body's writes back",
                        "notAppliedOn = IllegalArgumentException.class"),
                row("TransactionalBoundary", "[IdemTransactionalBoundary] TransactionalBoundary.creditNote:"
                        + " transactional = true: the body's writes commit with the record",
                        "effectBoundary = EffectBoundary.MARKED"),
                row("TransactionalApproval", "[IdemTransactionalApproval] TransactionalApproval.creditNote:"
                        + " transactional = true cannot be combined with approval = Approval.REQUIRED",
                        "approval = Approval.REQUIRED"),
                row("TransactionalAsync", "[IdemTransactionalAsync] TransactionalAsync.creditNote returns"
                        + " java.util.concurrent.CompletionStage<java.lang.String>: transactional = true needs a method"
                        + " that returns its result directly",
                        "transactional = true"),
                row("OutboxDestinationTwice", "[IdemOutboxDestination] OutboxDestinationTwice.creditNote: outbox: the"
                        + " destination \"customer-notifications\" is declared twice",
                        "outbox = {\"customer-notifications\""),
                row("OutboxDestinationEmpty", "[IdemOutboxDestination] OutboxDestinationEmpty.creditNote: outbox: the"
                        + " outbox destination is empty",
                        "outbox = {\"audit\", \"\"}"),
                row("TransactionalUncertainRetry", "[IdemUncertainRetry] retry = Retry.UNCERTAIN re-runs uncertain"
                        + " calls of TransactionalUncertainRetry.creditNote",
                        "retry = Retry.UNCERTAIN"),
                row("NoDownstreamAnswer", "[IdemNoDownstreamAnswer] downstreamKey = false, and no reconciler",
                        "downstreamKey = false"),
                row("UncertainRetry", "[IdemUncertainRetry] retry = Retry.UNCERTAIN re-runs uncertain calls of"
                        + " UncertainRetry.sendWelcome",
                        "retry = Retry.UNCERTAIN"),
                row("DownstreamRetention", "[IdemDownstreamRetention] downstreamKey = true needs downstreamRetention",
                        "downstreamKey = true"),
                row("BadDuration", "[IdemDuration] lease = \"30 seconds\" is not an ISO-8601 duration",
                        "lease = \"30 seconds\""),
                row("LeasePositive", "[IdemLeasePositive] lease = \"PT0S\" must be positive",
                        "lease = \"PT0S\""),
                row("LeaseVsDownstream", "[IdemLeaseVsDownstream] lease = \"PT2H\" must be shorter than"
                        + " downstreamRetention = \"PT1H\"",
                        "lease = \"PT2H\""),
                row("RetentionVsLease", "[IdemRetentionVsLease] retention = \"PT10S\" must be at least the lease"
                        + " (\"PT30S\")",
                        "retention = \"PT10S\""),
                row("PrivateMethod", "[IdemMethodShape] @IdempotentTool method PrivateMethod.refund is private",
                        "@IdempotentTool("),
                row("AbstractMethod", "[IdemMethodShape] @IdempotentTool method AbstractMethod.refund is abstract",
                        "@IdempotentTool("),
                row("PrivateToolClass", "[IdemToolClass] @IdempotentTool method Hidden.refund is declared in the"
                        + " private class bad.PrivateToolClass.Hidden",
                        "@IdempotentTool("),
                row("StreamResult", "[IdemResultType] StreamResult.export returns java.io.InputStream, which cannot"
                        + " be stored and replayed as JSON",
                        "public java.io.InputStream export"),
                row("WriterResult", "[IdemResultType] WriterResult.export returns java.io.Writer, which cannot be"
                        + " stored and replayed as JSON", "public java.io.Writer export"),
                row("ObjectResult", "[IdemResultType] ObjectResult.export returns java.lang.Object",
                        "public Object export"),
                row("AsyncResult", "[IdemAsyncResult] AsyncResult.refund returns bad.AsyncResult.RefundFuture:"
                        + " the agent returns the runtime's own CompletableFuture or Mono in place of the tool's, so"
                        + " only CompletionStage<T>, CompletableFuture<T> and Reactor's Mono<T> themselves are"
                        + " supported", "RefundFuture refund"),
                row("CompletionStageResult", "[IdemResultType] CompletionStageResult.refund returns"
                        + " java.util.concurrent.CompletionStage<java.util.Iterator<java.lang.String>>, which cannot"
                        + " be stored and replayed as JSON", "CompletionStage<Iterator<String>> refund"),
                row("MonoResult", "[IdemResultType] MonoResult.refund returns"
                        + " reactor.core.publisher.Mono<java.util.Iterator<java.lang.String>>, which cannot be stored"
                        + " and replayed as JSON", "Mono<Iterator<String>> refund"),
                row("IteratorResult", "[IdemResultType] IteratorResult.refund returns"
                        + " java.util.Iterator<java.lang.String>, which cannot be stored and replayed as JSON",
                        "Iterator<String> refund"),
                row("FluxResult", "[IdemFluxResult] FluxResult.refunds returns"
                        + " reactor.core.publisher.Flux<java.lang.String>: a Flux emits any number of values, but one"
                        + " operation key stands for one result that a retry replays", "Flux<String> refunds"),
                row("PublisherResult", "[IdemPublisherResult] PublisherResult.refunds returns"
                        + " org.reactivestreams.Publisher<java.lang.String>: a publisher may emit any number of"
                        + " values, but one operation key stands for one result that a retry replays",
                        "Publisher<String> refunds"),
                row("FlowPublisherResult", "[IdemPublisherResult] FlowPublisherResult.refunds returns"
                        + " java.util.concurrent.Flow.Publisher<java.lang.String>: a publisher may emit any number of"
                        + " values", "Flow.Publisher<String> refunds"),
                row("FutureResult", "[IdemFutureResult] FutureResult.refund returns"
                        + " java.util.concurrent.Future<java.lang.String>: a plain Future says when its value"
                        + " arrives only to a thread that blocks on it", "Future<String> refund"),
                row("SuspendFunction", "[IdemSuspendFunction] SuspendFunction.refund is a Kotlin suspend function"
                        + " (its last parameter is a kotlin.coroutines.Continuation)",
                        "Continuation<? super String> continuation", "stubs/kotlin/coroutines/Continuation.java"),
                row("PayloadType", "[IdemPayloadType] parameter connection of PayloadType.refund has type"
                        + " java.sql.Connection",
                        "java.sql.Connection connection"),
                row("AbstractReconciler", "[IdemReconcilerClass] reconciler = bad.AbstractReconciler.Base.class is"
                        + " not a concrete class",
                        "reconciler = Base.class"),
                row("ReconcilerWithoutConstructor", "[IdemReconcilerClass] reconciler ="
                        + " bad.ReconcilerWithoutConstructor.Needy.class has no public no-argument constructor",
                        "reconciler = Needy.class"),
                row("ReconcilerInner", "[IdemReconcilerClass] reconciler = bad.ReconcilerInner.Checker.class is an"
                        + " inner class; make it static", "reconciler = Checker.class"),
                row("ReconcilerVoidResult", "[IdemReconcilerResult] reconciler = bad.ReconcilerVoidResult.Strings.class"
                        + " produces java.lang.String, which ReconcilerVoidResult.notifyCustomer (returning void) cannot"
                        + " return; implement Reconciler<Void>", "reconciler = Strings.class"),
                row("NotAReconciler", "[IdemReconcilerClass] reconciler = java.lang.String.class does not implement"
                        + " io.idempotent.runtime.Reconciler",
                        "reconciler = String.class"),
                row("ReconcilerResult", "[IdemReconcilerResult] reconciler = bad.ReconcilerResult.Strings.class"
                        + " produces java.lang.String, which ReconcilerResult.refund (returning bad.ReconcilerResult.Refund)"
                        + " cannot return",
                        "reconciler = Strings.class"),
                row("StepParameter", "[IdemStepParameter] parameter step of StepParameter.refund has the name of"
                        + " {step}, which in the key \"refund:{invoiceId}:{step}\" is always the workflow's step",
                        "String step)"),
                row("PayloadIteratorComponent", "[IdemPayloadType] parameter order of PayloadIteratorComponent.ship"
                        + " has type bad.PayloadIteratorComponent.Order, whose order.items is a"
                        + " java.util.Iterator<bad.PayloadIteratorComponent.Item>, which cannot be hashed as part of"
                        + " the payload: hashing the payload would use it up, and the body would then see it empty;"
                        + " pass the values as a List, or mark the parameter @NotPayload", "ship(Order order)"),
                // A channel is one-pass (OnePassTypes, shared with the runtime): it was said to be "not data".
                row("PayloadChannel", "[IdemPayloadType] parameter content of PayloadChannel.upload has type"
                        + " java.nio.channels.ReadableByteChannel, which cannot be hashed as part of the payload:"
                        + " hashing the payload would use it up, and the body would then see it empty",
                        "ReadableByteChannel content"),
                row("PayloadStreamProperty", "[IdemPayloadType] parameter batch of PayloadStreamProperty.importBatch"
                        + " has type bad.PayloadStreamProperty.Batch, whose batch.lines is a"
                        + " java.util.stream.Stream<java.lang.String>, which cannot be hashed as part of the payload:"
                        + " hashing the payload would use it up", "importBatch(Batch batch)"),
                row("PayloadSupplier", "[IdemPayloadType] parameter amountCents of PayloadSupplier.refund has type"
                        + " java.util.function.Supplier<java.lang.Long>, which cannot be hashed as part of the payload:"
                        + " a function or lambda hashes as {}, so a call with a changed one would replay the first"
                        + " call's result; pass the values it stands for", "Supplier<Long> amountCents"),
                row("PayloadSingleMethodInterface", "[IdemPayloadType] parameter rules of"
                        + " PayloadSingleMethodInterface.quote has type"
                        + " java.util.List<bad.PayloadSingleMethodInterface.PriceRule>, in which an element of rules"
                        + " is a bad.PayloadSingleMethodInterface.PriceRule, which cannot be hashed as part of the"
                        + " payload: a function or lambda hashes as {}", "List<PriceRule> rules"),
                // equals, hashCode and toString redeclared are not methods of its own: still a function.
                row("PayloadObjectMethods", "[IdemPayloadType] parameter discount of PayloadObjectMethods.quote has"
                        + " type bad.PayloadObjectMethods.Discount, which cannot be hashed as part of the payload: a"
                        + " function or lambda hashes as {}", "Discount discount)"),
                row("PayloadCyclicType", "[IdemPayloadType] parameter tree of PayloadCyclicType.visit has type"
                        + " bad.PayloadCyclicType.Node, whose tree.leaf.onVisit is a java.lang.Runnable, which cannot"
                        + " be hashed as part of the payload: a function or lambda hashes as {}", "visit(Node tree)"),
                row("LeaseTooShort", "[IdemLeaseTooShort] lease = \"PT0.0004S\" is 0 ms as the store counts it; a"
                        + " lease must be at least one second (\"PT1S\")", "lease = \"PT0.0004S\""),
                row("LeaseTooLong", "[IdemDurationTooLong] lease = \"PT9223372036854775807S\" is longer than 100"
                        + " years (\"P36525D\")", "lease = \"PT9223372036854775807S\""),
                row("RetentionTooLong", "[IdemDurationTooLong] retention = \"P36526D\" is longer than 100 years",
                        "retention = \"P36526D\""),
                row("DownstreamRetentionTooLong", "[IdemDurationTooLong] downstreamRetention ="
                        + " \"PT9223372036854775807S\" is longer than 100 years",
                        "downstreamRetention = \"PT9223372036854775807S\""),
                row("DownstreamRetentionUnused", "[IdemDownstreamRetentionUnused] downstreamRetention = \"P1D\" is"
                        + " given, but downstreamKey = false: the downstream does not deduplicate the key, so nothing"
                        + " would use the retention and it would be dropped", "downstreamRetention = \"P1D\""),
                row("ResultCyclic", "[IdemResultReadBack] ResultCyclic.hire returns bad.ResultCyclic.Employee, which"
                        + " cannot be read back from the store for a replay: result.manager (bad.ResultCyclic.Employee)"
                        + " is a type that holds itself", "public Employee hire"),
                row("ResultInterface", "[IdemResultReadBack] ResultInterface.pay returns bad.ResultInterface.Receipt,"
                        + " which cannot be read back from the store for a replay: result.method"
                        + " (bad.ResultInterface.PaymentMethod) is an interface or abstract class without type"
                        + " information", "public Receipt pay"),
                row("ResultNoCreator", "[IdemResultReadBack] ResultNoCreator.export returns"
                        + " bad.ResultNoCreator.Report, which cannot be read back from the store for a replay:"
                        + " bad.ResultNoCreator.Report is a class with no creator", "public Report export"),
                row("ToolNameBlank", "[IdemToolName] ToolNameBlank.refund (name \"   \"): a tool name must not be"
                        + " blank", "name = \"   \""),
                row("ToolNameControl", "[IdemToolName] ToolNameControl.refund (name \"issue_refund\\u0000\"): the"
                        + " tool name contains the control character U+0000", "name = \"issue_refund"),
                row("ApprovalValidityTooShort", "[IdemApprovalValidity] approvalValidity = \"PT0.5S\" is 500 ms as the"
                        + " store counts it; a grant must stay valid at least one second (\"PT1S\")",
                        "approvalValidity = \"PT0.5S\""),
                row("ApprovalValidityNegative", "[IdemApprovalValidity] approvalValidity ="
                        + " \"-PT9223372036854775807S\" is negative; a grant must stay valid at least one second",
                        "approvalValidity = \"-PT9223372036854775807S\""),
                row("ApprovalValidityTooLong", "[IdemDurationTooLong] approvalValidity = \"P36526D\" is longer than"
                        + " 100 years", "approvalValidity = \"P36526D\""),
                row("ApprovalValidityDuration", "[IdemDuration] approvalValidity = \"one day\" is not an ISO-8601"
                        + " duration", "approvalValidity = \"one day\""),
                row("ApprovalValidityUnused", "[IdemApprovalValidityUnused] approvalValidity = \"PT4H\" is given, but"
                        + " approval = Approval.NONE: no operation of ApprovalValidityUnused.deploy waits for a grant",
                        "approvalValidity = \"PT4H\""),
                // A person's approval does not make re-running an uncertain call safe: still refused.
                row("ApprovalUncertainRetry", "[IdemUncertainRetry] retry = Retry.UNCERTAIN re-runs uncertain calls of"
                        + " ApprovalUncertainRetry.refundAboveLimit", "retry = Retry.UNCERTAIN"));
    }

    /** A row; {@code stubs} are other sources the input compiles with (stand-ins for types of other languages). */
    private static Arguments row(String resource, String message, String line, String... stubs) {
        return Arguments.of(resource, message, line, List.of(stubs));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInputs")
    void isOneClearErrorOnTheLineThatIsWrong(String resource, String message, String line, List<String> stubs) {
        JavaFileObject file = JavaFileObjects.forResource("bad/" + resource + ".java");
        List<String> sources = new ArrayList<>(stubs);
        sources.add("bad/" + resource + ".java");
        Compilation compilation = Compilations.compile(sources.toArray(String[]::new));
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorCount(1);
        assertThat(compilation).hadWarningCount(0);
        assertThat(compilation).hadErrorContaining(message).inFile(file).onLineContaining(line);
    }
}
