package io.idempotent.test.tools;

import io.idempotent.annotations.Approval;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.OperationContext;
import io.idempotent.test.ProviderDouble;

/**
 * Tools whose policy claims more than their downstream gives; the gate cannot see it at compile
 * time, the contract test must.
 */
public class WrongTools {

    private final ProviderDouble mail;

    /** Tools on a mail double (which, like a real mail provider, does not deduplicate). */
    public WrongTools(ProviderDouble mail) {
        this.mail = mail;
    }

    /** Claims that the downstream deduplicates the key; it does not. */
    @IdempotentTool(key = "claim:{userId}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.UNCERTAIN, name = "kit_false_claim")
    public Receipt falseClaim(String userId, String text) {
        String key = OperationContext.current().key();
        return mail.request(key, () -> new Receipt("msg-" + userId + "-" + text.length(), key));
    }

    /** The same false claim on a tool that a person approves first: the approval does not make it true. */
    @IdempotentTool(key = "claim_approved:{userId}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.UNCERTAIN, approval = Approval.REQUIRED, name = "kit_false_claim_approved")
    public Receipt falseClaimApproved(String userId, String text) {
        String key = OperationContext.current().key();
        return mail.request(key, () -> new Receipt("msg-" + userId + "-" + text.length(), key));
    }

    /** Retries uncertain outcomes on the word of a reconciler that never looks. */
    @IdempotentTool(key = "lie:{userId}", downstreamKey = false, reconciler = AlwaysNotApplied.class,
            retry = Retry.UNCERTAIN, name = "kit_lying_reconciler")
    public Receipt lyingReconciler(String userId, String text) {
        String key = OperationContext.current().key();
        return mail.request(key, () -> new Receipt("msg-" + userId + "-" + text.length(), key));
    }

    /** Calls its downstream around the kit's injection points, so no fault can reach it. */
    @IdempotentTool(key = "bypass:{userId}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.UNCERTAIN, name = "kit_bypass")
    public Receipt bypass(String userId, String text) {
        return new Receipt("local-" + userId + "-" + text.length(), OperationContext.current().key());
    }

    /** The downstream was unreachable, says the tool, for every transport failure: also after a commit. */
    public static final class MailUnavailable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        MailUnavailable(Throwable cause) {
            super("mail provider unavailable", cause);
        }
    }

    /** Claims with notAppliedOn that every transport failure proves nothing happened. */
    @IdempotentTool(key = "broad:{userId}", downstreamKey = false, reconciler = io.idempotent.runtime.ManualReview.class,
            retry = Retry.SAFE, notAppliedOn = MailUnavailable.class, name = "kit_broad_not_applied")
    public Receipt broadNotAppliedOn(String userId, String text) {
        String key = OperationContext.current().key();
        try {
            return mail.request(key, () -> new Receipt("msg-" + userId + "-" + text.length(), key));
        } catch (java.io.UncheckedIOException e) {
            throw new MailUnavailable(e);
        }
    }

    /** Turns a lost reply into a normal answer, which the runtime then stores and replays. */
    @IdempotentTool(key = "swallow:{userId}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.UNCERTAIN, name = "kit_swallow")
    public Receipt swallow(String userId, String text) {
        String key = OperationContext.current().key();
        try {
            return mail.request(key, () -> new Receipt("msg-" + userId + "-" + text.length(), key));
        } catch (java.io.UncheckedIOException e) {
            return new Receipt("unknown", key);
        }
    }
}
