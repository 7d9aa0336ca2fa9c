package io.idempotent.runtime;

import io.idempotent.runtime.internal.CurrentAttempt;

/**
 * The operation that the current thread's tool body is running: its key (to pass to the
 * downstream as the idempotency key) and the effect boundary.
 *
 * <pre>{@code
 * OperationContext op = OperationContext.current();
 * String requestId = "refund-" + op.key();
 * op.effectStarting(requestId);          // durable, fenced by the lease
 * return provider.refund(invoiceId, amount, op.key());
 * }</pre>
 */
public interface OperationContext {

    /**
     * The operation of the tool body running on this thread (the innermost one, when tools nest).
     *
     * @throws IllegalStateException outside a tool body
     */
    static OperationContext current() {
        return CurrentAttempt.require();
    }

    /** The operation key; pass it to a downstream that deduplicates keys. */
    String key();

    /** The tool's name. */
    String tool();

    /**
     * The unique id of this attempt (one per execution of the body; random, so not reused even for
     * a key whose record was lost and claimed afresh): the store fences every write of a running
     * attempt by it as well as by {@link #leaseToken()}. A fencing downstream that must tell such
     * attempts apart keys its check by this id together with the token (see {@link #leaseToken()}).
     */
    String attemptId();

    /** Which attempt this is for the key: 1 for the first execution, 2 after a retry, and so on. */
    int attempt();

    /**
     * This attempt's lease (fencing) token: it grows with every attempt that takes the operation
     * over, and the store refuses every write of an attempt whose token is no longer current. Pass
     * it to a downstream that can check it (reject a request whose token is lower than one it has
     * already seen for this key): only such a downstream can refuse a worker that stalled past its
     * lease while another attempt took over.
     *
     * <p>The limit: the token counts take-overs of one record. If the record is lost (an
     * asynchronous failover of the store's database, a restore from a backup) while an attempt
     * runs, the next call claims the key afresh and its token starts again at 1, so the new attempt
     * may hold the same token as the old one (or a lower one), and a downstream that checks the
     * token alone cannot tell them apart (the store can: it fences by {@link #attemptId()} too). Attempt
     * ids do not order attempts, but they identify them: a downstream that records the pair (token,
     * attempt id) per key and sees another attempt id with a token not above one it has seen knows that
     * the record was lost, and can refuse or hold that request instead of applying it twice. Use
     * synchronous replication for the store's database to keep this case away (see
     * docs/high-availability.md, "The price of asynchronous replication").
     */
    long leaseToken();

    /**
     * How long this attempt's lease is still valid at least, counted from the moment the last
     * write that renewed it (the claim, a heartbeat, {@link #effectStarting}) was sent, by the
     * lease length the database applied; zero once the attempt knows it lost the lease. A body
     * about to start a long effect can check it is not about to run out.
     */
    java.time.Duration leaseRemaining();

    /**
     * Marks the effect boundary: the body is about to start the external effect, under the given
     * downstream request id (kept for the reconciler and the incident review). A durable write,
     * fenced by this attempt's lease token: it succeeds only while this attempt still owns an
     * unexpired lease, and renews it to a full lease, so the effect starts with all of it. With
     * {@code EffectBoundary.MARKED}, a failure before this call is safe to retry.
     *
     * @param downstreamRequestId the id under which the downstream will know the request, or null;
     *     at most 512 characters and without control characters (operators read it in terminals and logs)
     * @throws LeaseLostException if this attempt lost its lease: the body must not start the effect
     * @throws ValueRejectedException if the id is too long or has a control character: nothing was
     *     written, and the body must not start the effect
     */
    void effectStarting(String downstreamRequestId);

    /**
     * The connection of a transactional tool's call ({@code transactional = true}): the body's
     * writes on it commit in one transaction with the claim and the completion, or roll back with
     * them (a crash anywhere commits nothing, so a repeat runs the body once). The call owns the
     * transaction: {@code commit}, {@code rollback()} and {@code setAutoCommit} are refused (throw
     * from the body to roll its writes back), and {@code close} does nothing. Under Spring, code
     * that uses the store's {@code DataSource} ({@code JdbcTemplate}, {@code @Transactional})
     * writes in the same transaction.
     *
     * @throws IllegalStateException if the tool is not transactional
     */
    default java.sql.Connection connection() {
        throw new IllegalStateException("tool " + tool() + " is not transactional: its body has no connection of"
                + " the store");
    }

    /**
     * Sends {@code message} to {@code destination} through the outbox: it is written as a row of
     * the store's {@code tool_operation_outbox} in the same transaction as this operation's
     * completion, so it exists if and only if the completion commits (a body that throws, a
     * completion that fails or loses its lease, writes none). A relay ({@link Outbox#relay}) then
     * delivers it at least once to the application's {@link OutboxSender}, with this operation's
     * key as its idempotency key ({@link OutboxMessage#idempotencyKey()}), after the messages this
     * body sent before it. A replay of the operation sends nothing again. See docs/outbox.md.
     *
     * <pre>{@code
     * OperationContext op = OperationContext.current();
     * ledger.insert(op.key(), invoiceId, amountCents);
     * op.send("billing-events", "{\"invoice\":\"" + invoiceId + "\"}");
     * }</pre>
     *
     * @param destination where it goes (a topic, queue or endpoint name the sender knows): 1 to 200
     *     characters, no control characters
     * @param message the message's text (JSON, for instance); not null
     * @throws ValueRejectedException if the destination is empty, too long or has a control
     *     character, or the message is null: nothing is sent
     */
    void send(String destination, String message);
}
