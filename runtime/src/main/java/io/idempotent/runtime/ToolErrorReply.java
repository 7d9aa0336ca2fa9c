package io.idempotent.runtime;

import java.lang.System.Logger.Level;
import java.util.Objects;
import java.util.Optional;

/**
 * What an agent framework tells the model when a tool call ended in one of the runtime's own
 * exceptions: one short, structured tool result per kind of outcome, the same in every framework
 * adapter (Spring AI, LangChain4j, MCP). It names the tool and the kind, never the stored
 * payload, result or error, and never the operation key.
 *
 * <p>Only outcomes the model can act on become a reply: retry later, stop and tell the user, do
 * not change the arguments, wait for a person's approval, or give up a denied decision. Everything else the runtime throws (a missing key or binding, a
 * misconfigured store) is not the model's to fix: {@link #forModel} answers empty, and the adapter
 * lets the exception fail the turn.
 */
public final class ToolErrorReply {

    private static final System.Logger LOG = System.getLogger(ToolErrorReply.class.getName());

    /** The kinds of reply, each with its fixed text. */
    public enum Kind {
        /**
         * {@link OperationInProgressException}, {@link StoreUnavailableException}, {@link LeaseLostException},
         * and a {@linkplain IdempotencyException#retryable() retryable} {@link OperationFailedException}
         * (a waiter's answer after a failed-safe attempt that the policy re-runs).
         */
        RETRY_LATER("retry_later", "in progress or temporarily unavailable: call again later with identical arguments"),
        /**
         * {@link NeedsReconciliationException}, a {@link OperationFailedException} that is not retryable, and
         * {@link ResultNotReplayableException} (the body ran, but its result cannot be stored or
         * read back: a person settles the operation).
         */
        IN_REVIEW("in_review", "the outcome is unknown and has gone to review: do not retry, tell the user"),
        /** {@link PayloadConflictException}. */
        CONFLICT("conflict",
                "this decision was already executed with different arguments: do not retry with changed arguments"),
        /**
         * {@link ApprovalPendingException}: retryable, but only as the same call. A changed call
         * would be another decision that the person's approval does not cover.
         */
        APPROVAL_PENDING("approval_pending", "the decision waits for a person's approval: do not re-plan and do not"
                + " change the arguments, call again later with the same arguments"),
        /**
         * {@link ApprovalDeniedException}: final. Another way to the same effect would go around
         * the person who said no.
         */
        APPROVAL_DENIED("approval_denied", "a person denied this decision: do not retry, and do not try another way"
                + " to do the same thing");

        private final String code;
        private final String text;

        Kind(String code, String text) {
            this.code = code;
            this.text = text;
        }

        /** The short machine-readable code, for example {@code retry_later}. */
        public String code() {
            return code;
        }

        /** The sentence the model reads. */
        public String text() {
            return text;
        }
    }

    private final Kind kind;
    private final String tool;

    private ToolErrorReply(Kind kind, String tool) {
        this.kind = kind;
        this.tool = tool;
    }

    /**
     * The runtime's exception in {@code thrown} or its causes (frameworks wrap what a tool throws),
     * or empty when the failure is not the runtime's.
     */
    public static Optional<IdempotencyException> idempotencyCause(Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof IdempotencyException e) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }

    /**
     * The reply for the model, or empty when {@code thrown} is not the runtime's exception, or is
     * one that must fail the turn instead (a configuration error). A reply is logged with the
     * tool, the key and the kind, so an operator can find the operation.
     */
    public static Optional<ToolErrorReply> forModel(Throwable thrown) {
        Optional<IdempotencyException> cause = idempotencyCause(thrown);
        if (cause.isEmpty()) {
            return Optional.empty();
        }
        IdempotencyException e = cause.get();
        Kind kind = kindOf(e);
        if (kind == null) {
            return Optional.empty();
        }
        LOG.log(Level.INFO, () -> "tool " + e.tool() + ", key " + e.operationKey() + ": "
                + e.getClass().getSimpleName() + " answered to the model as " + kind.code());
        return Optional.of(new ToolErrorReply(kind, e.tool()));
    }

    private static Kind kindOf(IdempotencyException e) {
        if (e instanceof OperationInProgressException || e instanceof StoreUnavailableException
                || e instanceof LeaseLostException || (e instanceof OperationFailedException && e.retryable())) {
            return Kind.RETRY_LATER;
        }
        if (e instanceof NeedsReconciliationException || e instanceof OperationFailedException
                || e instanceof ResultNotReplayableException) {
            return Kind.IN_REVIEW;
        }
        if (e instanceof PayloadConflictException) {
            return Kind.CONFLICT;
        }
        if (e instanceof ApprovalPendingException) {
            return Kind.APPROVAL_PENDING;
        }
        if (e instanceof ApprovalDeniedException) {
            return Kind.APPROVAL_DENIED;
        }
        return null;
    }

    /** The kind of outcome. */
    public Kind kind() {
        return kind;
    }

    /** The tool's name, or null when the exception did not know it. */
    public String tool() {
        return tool;
    }

    /**
     * The tool result the model reads: a one-line JSON object, for example
     * {@code {"error":"conflict","tool":"issue_refund","message":"this decision was already
     * executed with different arguments: do not retry with changed arguments"}}.
     */
    public String text() {
        return "{\"error\":\"" + kind.code + "\"," + (tool == null ? "" : "\"tool\":" + quote(tool) + ",")
                + "\"message\":\"" + kind.text + "\"}";
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }

    @Override
    public String toString() {
        return text();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ToolErrorReply r && r.kind == kind && Objects.equals(r.tool, tool);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, tool);
    }
}
