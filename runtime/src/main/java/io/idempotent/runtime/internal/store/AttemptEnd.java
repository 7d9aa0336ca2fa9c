package io.idempotent.runtime.internal.store;

import io.idempotent.runtime.internal.Redacted;

/**
 * The end of the attempt that holds the lease, written on the operation's row by the same
 * statement as its completion or failure.
 *
 * @param downstreamId the downstream request id the body reported, or null to keep what is there
 * @param detail the error or note in words, or null
 */
public record AttemptEnd(String downstreamId, String detail) {

    /** The downstream id; the detail by size only (it may quote an error). */
    @Override
    public String toString() {
        return "AttemptEnd[downstreamId=" + downstreamId + ", detail=" + Redacted.size(detail) + "]";
    }
}
