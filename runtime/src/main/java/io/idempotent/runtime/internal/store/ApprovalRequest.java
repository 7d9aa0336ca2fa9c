package io.idempotent.runtime.internal.store;

import java.time.Duration;

/**
 * What a call that needs approval records beside its operation: who asked and for how long a
 * grant will stay valid.
 *
 * @param step the workflow step of the call ({@code Step.currentKey()}), or null
 * @param requestedBy the process that asked ({@code pid@host})
 * @param validity how long a grant stays valid (the tool's {@code approvalValidity})
 */
public record ApprovalRequest(String step, String requestedBy, Duration validity) {

    /** The request's row in the attempt log: who asked, never the payload. */
    String detail() {
        return "approval requested by " + requestedBy + (step == null ? "" : " in step " + step);
    }
}
