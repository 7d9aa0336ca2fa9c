package io.idempotent.runtime;

/**
 * The root of every exception the runtime throws on its own account (the tool body's own
 * exceptions reach the caller unchanged). Each says whether the caller may retry the same call
 * with the same operation key.
 *
 * <p>Every message has one form, built here: the tool and the operation key, what happened, and
 * what to do (usually where an operator looks: {@link Operations}). A message names statuses,
 * types and field names; it never holds a stored payload or its hash, a result, an error body or a
 * reconciler's own words, because messages reach models, users and logs that must not see another
 * caller's data.
 */
public abstract class IdempotencyException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String tool;
    private final String operationKey;
    private final String happened;
    private final String advice;
    private final boolean retryable;

    /**
     * @param tool the tool's name, or null when not known yet
     * @param operationKey the operation key, or null when it could not be rendered
     * @param happened what happened, as a sentence without a final full stop
     * @param advice what the caller or an operator should do, or null when {@code happened} says it
     * @param retryable whether the same call with the same key may be repeated (see {@link #retryable()})
     * @param cause the cause, or null
     */
    protected IdempotencyException(String tool, String operationKey, String happened, String advice,
            boolean retryable, Throwable cause) {
        super(format(tool, operationKey, happened, advice), cause);
        this.tool = tool;
        this.operationKey = operationKey;
        this.happened = happened;
        this.advice = advice;
        this.retryable = retryable;
    }

    /** The one message format: {@code tool T, key K: what happened. What to do.} */
    private static String format(String tool, String key, String happened, String advice) {
        StringBuilder out = new StringBuilder();
        if (tool != null) {
            out.append("tool ").append(tool);
        }
        if (key != null) {
            out.append(out.length() == 0 ? "key " : ", key ").append(key);
        }
        if (out.length() > 0) {
            out.append(": ");
        }
        out.append(happened);
        if (advice != null && !advice.isEmpty()) {
            out.append(endsSentence(happened) ? " " : ". ").append(advice);
        }
        if (!endsSentence(out)) {
            out.append('.');
        }
        return out.toString();
    }

    private static boolean endsSentence(CharSequence text) {
        if (text.length() == 0) {
            return false;
        }
        char last = text.charAt(text.length() - 1);
        return last == '.' || last == '!' || last == '?';
    }

    /**
     * Whether repeating the same call with the same key is safe and may succeed: true when
     * nothing was claimed or another attempt is still working; false when a repeat would get the
     * same answer until the arguments, the key or a person changes something.
     */
    public final boolean retryable() {
        return retryable;
    }

    /** The tool's name, or null. */
    public String tool() {
        return tool;
    }

    /** The operation key, or null when it could not be rendered. */
    public String operationKey() {
        return operationKey;
    }

    /** What happened, without the tool, key and advice. */
    public String happened() {
        return happened;
    }

    /** What to do, or null when {@link #happened()} says it. */
    public String advice() {
        return advice;
    }
}
