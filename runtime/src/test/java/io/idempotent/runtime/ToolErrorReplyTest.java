package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ToolErrorReplyTest {

    private static final String SECRET = "card 4242 stored result";

    private static Optional<ToolErrorReply> reply(Throwable t) {
        return ToolErrorReply.forModel(new RuntimeException("framework wrapper", new InvocationTargetException(t)));
    }

    @Test
    void retryableOutcomesSayCallAgainLater() {
        for (IdempotencyException e : new IdempotencyException[] {
            new OperationInProgressException("issue_refund", "k", SECRET),
            new StoreUnavailableException("issue_refund", "k", SECRET),
            new LeaseLostException("issue_refund", "k", SECRET)}) {
            assertThat(reply(e)).get().extracting(ToolErrorReply::text).isEqualTo("{\"error\":\"retry_later\","
                    + "\"tool\":\"issue_refund\",\"message\":\"in progress or temporarily unavailable: call again"
                    + " later with identical arguments\"}");
        }
    }

    @Test
    void unknownOutcomesGoToReview() {
        assertThat(reply(new NeedsReconciliationException("t", "k", SECRET))).get()
                .extracting(ToolErrorReply::kind).isEqualTo(ToolErrorReply.Kind.IN_REVIEW);
        assertThat(reply(new OperationFailedException("t", "k", SECRET))).get().extracting(ToolErrorReply::text)
                .asString().contains("the outcome is unknown and has gone to review: do not retry, tell the user")
                .doesNotContain(SECRET).doesNotContain("\"k\"");
        // The body ran but its result cannot be stored or read back: the operation awaits
        // reconciliation, and a repeat is answered from there, never by running the body again.
        assertThat(reply(new ResultNotReplayableException("t", "k", SECRET))).get()
                .extracting(ToolErrorReply::kind).isEqualTo(ToolErrorReply.Kind.IN_REVIEW);
    }

    @Test
    void conflictsSayDoNotChangeTheArguments() {
        assertThat(reply(new PayloadConflictException("t", "k", SECRET))).get().extracting(ToolErrorReply::text)
                .asString().contains("this decision was already executed with different arguments: do not retry"
                        + " with changed arguments").doesNotContain(SECRET);
    }

    @Test
    void aPendingApprovalSaysWaitForThePersonWithTheSameArguments() {
        ApprovalPendingException pending = new ApprovalPendingException("issue_refund", "refund:step-1", SECRET);
        assertThat(pending.retryable()).isTrue();
        assertThat(reply(pending)).get().extracting(ToolErrorReply::text).isEqualTo("{\"error\":\"approval_pending\","
                + "\"tool\":\"issue_refund\",\"message\":\"the decision waits for a person's approval: do not re-plan"
                + " and do not change the arguments, call again later with the same arguments\"}");
    }

    @Test
    void aDeniedApprovalSaysDoNotRetryNorGoAroundIt() {
        ApprovalDeniedException denied = new ApprovalDeniedException("issue_refund", "refund:step-1", SECRET);
        assertThat(denied.retryable()).isFalse();
        assertThat(reply(denied)).get().extracting(ToolErrorReply::text).isEqualTo("{\"error\":\"approval_denied\","
                + "\"tool\":\"issue_refund\",\"message\":\"a person denied this decision: do not retry, and do not"
                + " try another way to do the same thing\"}");
    }

    @Test
    void configurationErrorsAndForeignFailuresAreNotTheModelsToFix() {
        assertThat(reply(new MissingOperationKeyException("t", "no step"))).isEmpty();
        assertThat(reply(new MissingBindingException("t", null, "no binding"))).isEmpty();
        assertThat(reply(new StoreConfigurationException("t", null, "bad url"))).isEmpty();
        assertThat(reply(new IllegalStateException("the tool's own failure"))).isEmpty();
        assertThat(ToolErrorReply.idempotencyCause(new RuntimeException(new MissingOperationKeyException("t", "x"))))
                .get().isInstanceOf(MissingOperationKeyException.class);
    }
}
