package io.idempotent.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The console's one-use confirmation, shared by settlements and approval decisions: a reviewed
 * decision is carried out at most once, only from the session that reviewed it, and only as what
 * it was reviewed as.
 */
class ConsoleConfirmationsTest {

    private final ConsoleConfirmations confirmations = new ConsoleConfirmations();
    private final PendingDecision grant = new PendingDecision("refund_over_limit", "refund:inv_10",
            ApprovalDecisions.Decision.GRANT, "ab".repeat(32), "alice", null);

    @Test
    void aConfirmationWorksOnce() {
        String id = confirmations.hold("session-1", grant);
        assertThat(confirmations.take(id, "session-1", PendingDecision.class)).isSameAs(grant);
        assertThatThrownBy(() -> confirmations.take(id, "session-1", PendingDecision.class))
                .isInstanceOf(RefusedException.class).hasMessage("this confirmation is unknown, used or expired:"
                        + " review the decision again");
    }

    @Test
    void anotherSessionCannotConfirmAndUsesItUp() {
        String id = confirmations.hold("session-1", grant);
        assertThatThrownBy(() -> confirmations.take(id, "session-2", PendingDecision.class))
                .isInstanceOf(RefusedException.class);
        assertThatThrownBy(() -> confirmations.take(id, "session-1", PendingDecision.class))
                .isInstanceOf(RefusedException.class);
    }

    @Test
    void aDecisionIsNotConfirmedAsAnotherKind() {
        String id = confirmations.hold("session-1", grant);
        assertThatThrownBy(() -> confirmations.take(id, "session-1", PendingSettlement.class))
                .isInstanceOf(RefusedException.class);
    }

    @Test
    void logoutForgetsTheSessionsDecisionsOnly() {
        String mine = confirmations.hold("session-1", grant);
        String theirs = confirmations.hold("session-2", grant);
        confirmations.forget("session-1");
        assertThatThrownBy(() -> confirmations.take(mine, "session-1", PendingDecision.class))
                .isInstanceOf(RefusedException.class);
        assertThat(confirmations.take(theirs, "session-2", PendingDecision.class)).isSameAs(grant);
        assertThatThrownBy(() -> confirmations.take(null, "session-2", PendingDecision.class))
                .isInstanceOf(RefusedException.class);
    }
}
