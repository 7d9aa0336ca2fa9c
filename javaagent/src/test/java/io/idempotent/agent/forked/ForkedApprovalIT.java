package io.idempotent.agent.forked;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.PendingApproval;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An approval that outlives the JVM that asked for it: one JVM started with {@code -javaagent:}
 * calls a tool declared {@code approval = Approval.REQUIRED} ({@code ProbeTools.approvedCharge})
 * and exits with the request pending; while no JVM runs, an operator's runtime (this test process,
 * on the same store) reads the queue and decides with the stored payload hash; the next JVM's same
 * call runs the body once, or is answered the denial. Effects are counted in the file the body
 * appends to.
 */
class ForkedApprovalIT extends ForkedRuns {

    private static final String TOOL = "probe_approved_charge";


    @ParameterizedTest
    @EnumSource(StoreTarget.class)
    void aRequestFromAJvmThatExitedIsGrantedThenTheNextJvmRunsTheBodyOnceAndTheOneAfterReplays(StoreTarget store) {
        String order = order();
        String key = "approved_charge:" + order;
        ForkedProbe asked = run(store, order);
        assertThat(asked.thrown()).as(asked.output()).containsExactly(RUNTIME + "ApprovalPendingException");
        assertThat(asked.lines()).contains("RETRYABLE approval-1 true");
        assertThat(effects()).isEmpty();
        assertThat(status(store, key)).isEqualTo("awaiting_approval");

        try (IdempotentRuntime operator = store.operatorRuntime(dir)) {
            List<PendingApproval> queue = operator.approvals().pending("default", TOOL, 0, 10);
            assertThat(queue).extracting(PendingApproval::key).containsExactly(key);
            PendingApproval request = queue.get(0);
            // Who asked is the JVM that has exited.
            assertThat(request.requestedBy()).startsWith(asked.pid() + "@");
            assertThat(request.payloadJson()).contains(order);
            operator.approvals().grant("default", TOOL, key, request.payloadHash(), "ops-alice", "checked the order");
        }
        assertThat(status(store, key)).isEqualTo("approved");

        ForkedProbe approved = run(store, order);
        assertThat(approved.results()).as(approved.output()).containsExactly("charged " + order + " 500 by pid "
                + approved.pid());
        assertThat(effects()).containsExactly("approved charge " + order + " 500");
        assertThat(status(store, key)).isEqualTo("completed");

        ForkedProbe again = run(store, order);
        assertThat(again.results()).as(again.output()).containsExactly(approved.results().get(0));
        assertThat(effects()).containsExactly("approved charge " + order + " 500");
        assertThat(store.attemptRows(dir, key, "APPROVAL_REQUESTED")).isEqualTo(1);
        assertThat(store.attemptRows(dir, key, "APPROVAL_GRANTED")).isEqualTo(1);
        assertThat(store.attemptRows(dir, key, "COMPLETED")).isEqualTo(1);
        assertThat(store.attemptRows(dir, key, "REPLAYED")).as(again.output()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(value = StoreTarget.class, names = "H2_DEFAULT")
    void aRequestFromAJvmThatExitedIsDeniedThenTheNextJvmIsAnsweredTheDenialAsFinal(StoreTarget store) {
        String order = order();
        String key = "approved_charge:" + order;
        ForkedProbe asked = run(store, order);
        assertThat(asked.thrown()).as(asked.output()).containsExactly(RUNTIME + "ApprovalPendingException");

        try (IdempotentRuntime operator = store.operatorRuntime(dir)) {
            PendingApproval request = operator.approvals().pending("default", TOOL, 0, 10).get(0);
            assertThat(request.key()).isEqualTo(key);
            operator.approvals().deny("default", TOOL, key, request.payloadHash(), "ops-bob", "not this order");
        }

        ForkedProbe denied = run(store, order);
        assertThat(denied.thrown()).as(denied.output()).containsExactly(RUNTIME + "ApprovalDeniedException");
        assertThat(denied.lines()).contains("RETRYABLE approval-1 false");
        assertThat(effects()).isEmpty();
        assertThat(status(store, key)).isEqualTo("denied");
        assertThat(store.attemptRows(dir, key, "APPROVAL_DENIED")).isEqualTo(1);
        assertThat(store.attemptRows(dir, key, "DENIED")).as(denied.output()).isEqualTo(1);
    }

    /**
     * The answer a JVM gives from the record (here AWAITING_APPROVAL; REPLAYED and DENIED alike) is
     * in the attempt log even when the JVM exits right after the call. It used to be written after
     * the call returned, and on the default H2 store (AUTO_SERVER=TRUE) H2's own shutdown hook
     * closed the database while the runtime's close drained the answers (the H2 trace showed 90135
     * "open in exclusive mode", then 90121 "Database is already closed" on every retry), with no
     * ERROR line counting the loss; an operator's read of the queue between the JVMs, as
     * {@code idem approvals} makes, made it happen almost every time. Such a store now writes
     * each answer before its call returns.
     */
    @ParameterizedTest
    @EnumSource(value = StoreTarget.class, names = "H2_DEFAULT")
    void theAnswerOfAJvmThatExitsRightAfterItsCallIsInTheAttemptLog(StoreTarget store) {
        String order = order();
        String key = "approved_charge:" + order;
        run(store, order);
        try (IdempotentRuntime operator = store.operatorRuntime(dir)) {
            assertThat(operator.approvals().pending("default", TOOL, 0, 10)).extracting(PendingApproval::key)
                    .containsExactly(key);
        }

        ForkedProbe repeat = run(store, order);
        assertThat(repeat.thrown()).as(repeat.output()).containsExactly(RUNTIME + "ApprovalPendingException");
        assertThat(store.attemptRows(dir, key, "AWAITING_APPROVAL")).as(repeat.output()).isEqualTo(1);
    }

    /** One JVM with the agent that calls the approval tool once for {@code order} and exits. */
    private ForkedProbe run(StoreTarget store, String order) {
        ForkedProbe probe = worked(ForkedProbe.start(Jdk.current(), store, dir, "approval", order, "500",
                "1").finish(), 12);
        assertThat(probe.outcomes()).as(probe.output()).hasSize(1);
        return probe;
    }
}
