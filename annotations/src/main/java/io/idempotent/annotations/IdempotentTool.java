package io.idempotent.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a tool method whose body must run at most once per operation key, however often the
 * agent, the runtime, a queue or an operator repeats the call.
 *
 * <p>Every call first claims its operation key in a durable store. A duplicate of a completed
 * call gets the stored result and the body does not run again; the same key with different
 * arguments is rejected; a call whose outcome is uncertain (the body failed or its worker died
 * after the effect may have begun) is settled by reconciliation instead of a blind retry.
 *
 * <p>A local row alone never makes an external effect (an email, a charge, a deployment) exactly
 * once. That takes an answer from the downstream: it deduplicates the key we pass it
 * ({@link #downstreamKey()}), or it can be queried ({@link #reconciler()}), or a person decides.
 * The annotation processor fails the build of a tool that does not say which.
 *
 * <pre>{@code
 * @IdempotentTool(
 *     key = "refund:{invoiceId}:{step}",
 *     downstreamKey = true,
 *     downstreamRetention = "P1D",
 *     retry = Retry.UNCERTAIN)
 * Refund issueRefund(String invoiceId, long amountCents, @NotPayload TraceInfo trace) { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface IdempotentTool {

    /**
     * The operation key template: who creates the identity of this operation.
     *
     * <p>Literal text plus placeholders: {@code {param}} (a parameter's value),
     * {@code {param.accessor}} (a record component, getter or public field of a parameter,
     * chained as deep as needed) and {@code {step}} (the step key that the deterministic workflow
     * layer set with {@code Step.begin(...)}). The key must stay the same when a call is
     * retried, and must differ between two operations that should both happen. Put a decision
     * identity in it (an approval id, the workflow step), not only the arguments the model
     * chose: two legitimate identical requests would otherwise collapse into one.
     *
     * <p>At least one placeholder is required (a constant key would make every call one
     * operation). A rendered key may hold at most 512 characters and no control characters.
     *
     * <p>A placeholder (or the end of its accessor chain) must have one stable text form, the same
     * on every call and every JVM: a {@code String} or other {@code CharSequence}, {@code char},
     * an integral number or its box, {@code BigInteger}, {@code boolean}, an enum (its
     * {@code name()}), {@code UUID}, {@code BigDecimal} (one form per numeric value:
     * {@code 12.50} renders {@code 12.5}) or a {@code java.time} value other than
     * {@code ZonedDateTime} (ISO-8601). Floating-point numbers, arrays, collections and other
     * objects are refused at build time ({@code IdemKeyPartType}); the runtime's
     * {@code io.idempotent.runtime.binding.KeyParts} documents each form.
     */
    String key();

    /**
     * Whether the downstream deduplicates the key that the tool passes to it (the way payment
     * providers honour an {@code Idempotency-Key} header). The body reads the key with
     * {@code OperationContext.current().key()} and sends it along.
     *
     * <p>{@code true} requires {@link #downstreamRetention()}. {@code false} requires a
     * {@link #reconciler()} (a real one, or {@code ManualReview.class} when a person decides).
     */
    boolean downstreamKey();

    /**
     * Which failure states a repeated call may re-execute automatically. See {@link Retry}.
     * {@link Retry#UNCERTAIN} is allowed only with {@code downstreamKey = true} or a real
     * reconciler.
     */
    Retry retry();

    /**
     * How long the downstream remembers an idempotency key, as an ISO-8601 duration
     * ({@code "P1D"}, {@code "PT24H"}). Required when {@link #downstreamKey()} is {@code true},
     * and must be longer than {@link #lease()}: a retry after the downstream forgot the key would
     * be a second effect. At most 100 years; not allowed with {@code downstreamKey = false}, where
     * nothing would use it.
     */
    String downstreamRetention() default "";

    /**
     * How an uncertain outcome is settled: a class implementing
     * {@code io.idempotent.runtime.Reconciler} that asks the downstream whether the effect
     * happened, or {@code io.idempotent.runtime.ManualReview.class} when only a person can say.
     * It must be concrete, have a public no-argument constructor and produce the tool's result
     * type. The default, {@code void.class}, means "none declared", which the processor accepts
     * only with {@code downstreamKey = true}.
     */
    Class<?> reconciler() default void.class;

    /**
     * Exceptions that prove the effect did not happen (a declined card, a validation error from
     * the downstream). A call that fails with one of these (or a subclass) is recorded as
     * {@code failed_safe}: a repeat may run the body again. Any other failure after the effect
     * may have begun needs reconciliation.
     *
     * <p>{@code Throwable}, {@code Exception}, {@code RuntimeException} and {@code Error} fail the
     * build ({@code IdemNotAppliedOnBroad}): they cover every failure, a timeout after the request
     * was sent included. {@code IOException}, {@code UncheckedIOException},
     * {@code InterruptedIOException}, {@code EOFException}, {@code SocketException},
     * {@code SocketTimeoutException} and {@code HttpTimeoutException} are a warning
     * ({@code IdemNotAppliedOnIo}): they may be raised after the request was written. List the
     * specific exception that proves the request never left, such as {@code ConnectException} or
     * {@code UnknownHostException}.
     */
    Class<? extends Throwable>[] notAppliedOn() default {};

    /**
     * Where in the body the external effect may begin; see {@link EffectBoundary}. The default,
     * {@link EffectBoundary#BODY_START}, is the safe assumption for a body that does not mark
     * the boundary itself.
     */
    EffectBoundary effectBoundary() default EffectBoundary.BODY_START;

    /**
     * Whether the tool's effect is a write in the store's own database, committed with the
     * operation's record: the release gate's fourth question answered "the effect commits with
     * the record". The claim, every write the body makes through
     * {@code OperationContext.current().connection()} (or, under Spring, through the store's
     * {@code DataSource}: {@code JdbcTemplate}, {@code @Transactional} code) and the completion run
     * in one transaction. A crash anywhere rolls all of it back, so the retry runs the body once:
     * those writes happen exactly once. Nothing else does: an email sent, a charge made or a
     * message published from the body is not part of the transaction and is no more
     * exactly-once than in any other tool.
     *
     * <p>A body that throws rolls its writes back, so its failure is always safe to retry
     * ({@code failed_safe}). With {@code true}, {@link #downstreamKey()} must be {@code false} and
     * no {@link #reconciler()}, {@link #notAppliedOn()}, {@link EffectBoundary#MARKED} or
     * {@link Approval#REQUIRED} may be given, and {@link #retry()} may not be
     * {@link Retry#UNCERTAIN}: nothing of such a tool is ever uncertain. The method must return its
     * result directly (no {@code CompletionStage} or {@code Mono}): the transaction belongs to the
     * thread that claims. The store must run its statements on the caller's thread (PostgreSQL,
     * or H2 not shared by {@code AUTO_SERVER} as the embedded default is): another store refuses
     * the call before the claim. A caller in a Spring transaction on another data source than the
     * store's is refused too, rather than committing the tool's writes apart from it. See
     * docs/transactional-tools.md.
     */
    boolean transactional() default false;

    /**
     * The outbox destinations the body may send to with
     * {@code OperationContext.current().send(destination, message)}; none by default. Each such
     * message is written in the same transaction as the operation's completion and delivered
     * after it by a relay, at least once, with the operation key as its idempotency key (see
     * docs/outbox.md). Declaring them is what puts the choice in the release gate's table
     * ({@code "outbox"} in {@code tools.json}): a reviewer sees which tools send what, where
     * {@code send} alone is a call in the body that no build can see.
     *
     * <p>At run time a {@code send} to a destination not listed here is refused, and nothing is
     * sent: the body fails with {@code ValueRejectedException} naming this attribute. Each name
     * has 1 to 200 characters, no control characters, and is listed once, or the build fails
     * ({@code IdemOutboxDestination}). The outbox combines with every other answer:
     * {@code transactional = true} (the message commits with the body's writes), a downstream key
     * or a reconciler.
     *
     * <pre>{@code
     * @IdempotentTool(key = "credit:{invoiceId}", downstreamKey = true, downstreamRetention = "P7D",
     *     retry = Retry.UNCERTAIN, outbox = "customer-notifications")
     * }</pre>
     */
    String[] outbox() default {};

    /**
     * How long one attempt owns the key, as an ISO-8601 duration. A heartbeat extends the lease
     * while the body runs, so an expired lease means a dead worker. At least one second (counted in
     * milliseconds), at most 100 years, and shorter than {@link #downstreamRetention()} when the
     * downstream deduplicates.
     */
    String lease() default "PT30S";

    /**
     * How long the operation record (and so the replay of its result) is kept, as an ISO-8601
     * duration. At least {@link #lease()}, at most 100 years ({@code "P36525D"}).
     */
    String retention() default "P30D";

    /**
     * Whether a person must approve each operation before its body runs; {@link Approval#NONE}
     * by default. Which calls need a person is the workflow's decision, not the model's: give a
     * refund above a limit its own tool with {@code approval = Approval.REQUIRED}, and let the
     * deterministic code that picks the tool compare the amount. Approval does not replace the
     * release gate: a {@code Retry.UNCERTAIN} tool still needs a downstream key or a reconciler.
     */
    Approval approval() default Approval.NONE;

    /**
     * How long a grant stays valid, as an ISO-8601 duration: the next call with the key must come
     * within it, or the operation awaits approval again (the operator sees the grant expired).
     * At least one second, at most 100 years; only meaningful with {@link Approval#REQUIRED}.
     */
    String approvalValidity() default "P1D";

    /**
     * The name of the operation store that holds this tool's records; {@code "default"} unless
     * the application configured named stores ({@code store.NAME.url}).
     */
    String store() default "default";

    /**
     * The tool's name in the store, the metrics and the release-gate table; the method name when
     * empty. Unique per store; at most 200 characters (the store's column), or the build fails.
     */
    String name() default "";
}
