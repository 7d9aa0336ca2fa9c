package io.idempotent.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import io.idempotent.runtime.internal.Redacted;
import java.time.Instant;
import java.util.List;

/**
 * The stored record of one operation key, as reconcilers, operators and the incident review see
 * it.
 *
 * @param key the operation key
 * @param tool the tool's name
 * @param status the current status
 * @param payloadHash SHA-256 (hex) of the canonical payload JSON
 * @param payload the canonical payload: the payload arguments by parameter name
 * @param downstreamId the downstream request id reported by the last attempt that passed the
 *     effect boundary, or null
 * @param resultJson the stored result as JSON, or null until completed
 * @param errorJson the last failure as JSON ({@code type}, {@code message}), or null
 * @param attempts how many attempts claimed the key and ran the body
 * @param leaseToken the fencing counter: it grows with every change of owner or state
 * @param leaseUntil when the current lease expires (database clock), or null when none is held
 * @param effectStarted whether the current or last attempt may have begun the effect
 * @param createdAt when the key was first claimed
 * @param updatedAt the last change
 * @param expiresAt when the record may be deleted
 * @param attemptLog the first calls of this key, oldest first, so the original decision is always
 *     there: at most {@link AttemptPage#FIRST_PAGE} rows when read from a store; read the rest
 *     with {@link Operations#attemptLog(String, String, String, int, int)}
 * @param attemptCount how many rows the whole attempt log held when the record was read (at least
 *     {@code attemptLog().size()}): a looping caller can give one key thousands of answers
 */
public record OperationRecord(String key, String tool, OperationStatus status, String payloadHash, JsonNode payload,
        String downstreamId, String resultJson, String errorJson, int attempts, long leaseToken, Instant leaseUntil,
        boolean effectStarted, Instant createdAt, Instant updatedAt, Instant expiresAt,
        List<AttemptRecord> attemptLog, long attemptCount) {

    /** Keeps the attempt log immutable. */
    public OperationRecord {
        attemptLog = List.copyOf(attemptLog);
        if (attemptCount < attemptLog.size()) {
            throw new IllegalArgumentException("attemptCount " + attemptCount + " is less than the "
                    + attemptLog.size() + " rows given");
        }
    }

    /** A record whose attempt log is whole: {@code attemptCount} is its size. */
    public OperationRecord(String key, String tool, OperationStatus status, String payloadHash, JsonNode payload,
            String downstreamId, String resultJson, String errorJson, int attempts, long leaseToken,
            Instant leaseUntil, boolean effectStarted, Instant createdAt, Instant updatedAt, Instant expiresAt,
            List<AttemptRecord> attemptLog) {
        this(key, tool, status, payloadHash, payload, downstreamId, resultJson, errorJson, attempts, leaseToken,
                leaseUntil, effectStarted, createdAt, updatedAt, expiresAt, attemptLog, attemptLog.size());
    }

    /**
     * Whether the attempt log has rows after {@link #attemptLog()}: read them a page at a time with
     * {@link Operations#attemptLog(String, String, String, int, int)}.
     */
    public boolean hasMoreAttempts() {
        return attemptCount > attemptLog.size();
    }

    /**
     * The names, status, counters and times, with the payload's argument names and the sizes of
     * the result and the error: never their values, nor the payload's hash (a log line or a
     * message that prints a record must not carry the operation's data).
     */
    @Override
    public String toString() {
        List<String> arguments = new java.util.ArrayList<>();
        if (payload != null) {
            payload.fieldNames().forEachRemaining(arguments::add);
        }
        return "OperationRecord[tool=" + tool + ", key=" + key + ", status=" + status + ", payload arguments="
                + arguments + ", result=" + Redacted.size(resultJson) + ", error=" + Redacted.size(errorJson)
                + ", downstreamId=" + downstreamId + ", attempts=" + attempts + ", leaseToken=" + leaseToken
                + ", leaseUntil=" + leaseUntil + ", effectStarted=" + effectStarted + ", createdAt=" + createdAt
                + ", updatedAt=" + updatedAt + ", expiresAt=" + expiresAt + ", attemptLog=" + attemptLog.size()
                + " of " + attemptCount + " entries]";
    }
}
