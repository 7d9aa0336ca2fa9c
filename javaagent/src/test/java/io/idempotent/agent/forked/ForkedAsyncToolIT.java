package io.idempotent.agent.forked;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Asynchronous tools wrapped by the agent in real JVMs ({@code AsyncProbe}, which calls
 * {@code AsyncProbeTools} plainly): a method returning {@code CompletableFuture} or {@code Mono}
 * runs its body only through the runtime. The store's side of each case is tested on both
 * databases in the runtime's AsyncToolCallsTest and MonoToolCallsTest; here the replay across JVMs and
 * the halted JVM run on both, the rest on the default H2 store. Effects are counted in the file the
 * bodies append to.
 */
class ForkedAsyncToolIT extends ForkedRuns {



    @ParameterizedTest
    @EnumSource(StoreTarget.class)
    void anAsyncToolCalledTwiceWithOneKeyRunsOnceAndReplays(StoreTarget store) {
        String order = order();
        ForkedProbe probe = run(store, "twice", order);
        assertThat(probe.results()).as(probe.output()).hasSize(2);
        assertThat(probe.results().get(1)).isEqualTo(probe.results().get(0));
        // The body ran on the runtime's executor, not on the caller's thread.
        assertThat(probe.results().get(0)).contains("on idempotent-async-");
        assertThat(probe.lines()).contains("BODY_RUNS 1");
        assertThat(effects()).containsExactly("charge " + order + " 500");
        assertThat(status(store, "stage:" + order)).isEqualTo("completed");

        // Another JVM replays the stored value.
        ForkedProbe again = run(store, "once", order);
        assertThat(again.results()).as(again.output()).containsExactly(probe.results().get(0));
        assertThat(again.lines()).contains("BODY_RUNS 0");
        assertThat(effects()).hasSize(1);
    }

    @ParameterizedTest
    @EnumSource(value = StoreTarget.class, names = "H2_DEFAULT")
    void aStaticAsyncToolCalledTwiceWithOneKeyRunsOnceAndReplays(StoreTarget store) {
        String order = order();
        ForkedProbe probe = run(store, "static-twice", order);
        assertThat(probe.outcomes()).as(probe.output()).hasSize(2);
        assertThat(probe.outcomes().get(0)).startsWith("first RESULT static " + order + " 500 by pid");
        assertThat(probe.results()).hasSize(2);
        assertThat(probe.results().get(1)).as("a replay").isEqualTo(probe.results().get(0));
        // The runtime invoked the static method again on its executor, with no instance.
        assertThat(probe.lines()).anyMatch(l -> l.startsWith("BODY_THREAD idempotent-async-"));
        // The probe's main thread completed the body's stage; the returned stage completed on the runtime's executor.
        assertThat(probe.results().get(0)).endsWith(" on main");
        assertThat(probe.lines()).anyMatch(l -> l.startsWith("FIRST_COMPLETED_ON idempotent-async-"));
        assertThat(probe.lines()).contains("BODY_RUNS 1");
        assertThat(effects()).containsExactly("static " + order + " 500");
        assertThat(status(store, "static:" + order)).isEqualTo("completed");
    }

    @ParameterizedTest
    @EnumSource(value = StoreTarget.class, names = "H2_DEFAULT")
    void aSecondCallWhileTheFirstsValueIsPendingMeetsItInProgress(StoreTarget store) {
        String order = order();
        ForkedProbe probe = run(store, "concurrent", order);
        assertThat(probe.outcomes()).as(probe.output()).hasSize(2);
        assertThat(probe.outcomes().get(0)).startsWith("second THROWN " + RUNTIME + "OperationInProgressException");
        assertThat(probe.outcomes().get(1)).startsWith("first RESULT charge " + order + " 500 by pid");
        assertThat(probe.lines()).contains("BODY_RUNS 1");
        assertThat(effects()).containsExactly("charge " + order + " 500");
        assertThat(status(store, "stage:" + order)).isEqualTo("completed");
    }

    @ParameterizedTest
    @EnumSource(value = StoreTarget.class, names = "H2_DEFAULT")
    void theRuntimesReentryMarkLetsOnlyItsOwnInvocationThroughNotACallFromTheBody(StoreTarget store) {
        String order = order();
        ForkedProbe probe = run(store, "nested", order);
        assertThat(probe.outcomes()).as(probe.output()).hasSize(2);
        // The body called its own tool on the runtime's thread: claimed, and met its own key in progress.
        assertThat(probe.outcomes().get(0)).startsWith("nested THROWN " + RUNTIME + "OperationInProgressException");
        assertThat(probe.outcomes().get(1)).startsWith("first RESULT charge " + order + " 500 by pid");
        assertThat(probe.lines()).contains("BODY_RUNS 1");
        assertThat(effects()).containsExactly("charge " + order + " 500");
    }

    @ParameterizedTest
    @EnumSource(value = StoreTarget.class, names = "H2_DEFAULT")
    void aMonoToolRetriedByRetryWhenIsOneOperation(StoreTarget store) {
        String order = order();
        ForkedProbe probe = run(store, "mono-retry", order);
        // The first subscription's body was refused before its effect (safe), the retry ran it again.
        assertThat(probe.results()).as(probe.output()).hasSize(2);
        assertThat(probe.results().get(0)).startsWith("mono " + order + " 500 by pid");
        assertThat(probe.results().get(1)).as("a replay").isEqualTo(probe.results().get(0));
        assertThat(probe.lines()).contains("BODY_RUNS 2");
        assertThat(effects()).containsExactly("mono " + order + " 500");
        assertThat(status(store, "mono:" + order)).isEqualTo("completed");
    }

    @ParameterizedTest
    @EnumSource(value = StoreTarget.class, names = "H2_DEFAULT")
    void aCancellationBeforeTheEffectBoundaryReleasesTheKey(StoreTarget store) {
        String order = order();
        ForkedProbe probe = run(store, "cancel-before", order);
        assertThat(probe.outcomes()).as(probe.output()).hasSize(2);
        assertThat(probe.outcomes().get(0)).isEqualTo("cancel RESULT true");
        assertThat(probe.lines()).contains("DOWNSTREAM_CANCELLED true");
        assertThat(probe.outcomes().get(1)).startsWith("retry RESULT charge " + order + " 500 by pid");
        assertThat(probe.lines()).contains("BODY_RUNS 2");
        assertThat(effects()).containsExactly("charge " + order + " 500");
        assertThat(status(store, "stage:" + order)).isEqualTo("completed");
    }

    @ParameterizedTest
    @EnumSource(value = StoreTarget.class, names = "H2_DEFAULT")
    void aCancellationAfterTheEffectBoundaryGoesToReconciliation(StoreTarget store) {
        String order = order();
        ForkedProbe probe = run(store, "cancel-after", order);
        assertThat(probe.outcomes()).as(probe.output()).hasSize(2);
        assertThat(probe.outcomes().get(0)).isEqualTo("cancel RESULT true");
        assertThat(probe.thrown()).as(probe.output()).containsExactly(RUNTIME + "NeedsReconciliationException");
        assertThat(probe.lines()).contains("BODY_RUNS 1");
        assertThat(effects()).containsExactly("charge " + order + " 500");
        assertThat(status(store, "stage:" + order)).isEqualTo("needs_reconciliation");
    }

    @ParameterizedTest
    @EnumSource(StoreTarget.class)
    void aJvmHaltedWhileTheValueIsPendingAfterTheEffectLeavesItToReconciliation(StoreTarget store) {
        String order = order();
        String key = "stage:" + order;
        ForkedProbe halted = ForkedProbe.start(Jdk.current(), store, dir, "async", "halt", order, "500").finish();
        assertThat(halted.exitCode()).as(halted.output()).isEqualTo(3);
        assertThat(halted.lines()).as(halted.output()).contains("EFFECT_COMMITTED halting");
        assertThat(status(store, key)).isEqualTo("in_progress");

        awaitLeaseExpiry(store, key);
        ForkedProbe retry = run(store, "once", order);
        assertThat(retry.thrown()).as(retry.output()).containsExactly(RUNTIME + "NeedsReconciliationException");
        assertThat(retry.lines()).contains("BODY_RUNS 0");
        assertThat(effects()).containsExactly("charge " + order + " 500");
        assertThat(status(store, key)).isEqualTo("needs_reconciliation");
    }

    /** Runs one asynchronous command to its end; the agent started and wrapped every tool, async ones included. */
    private ForkedProbe run(StoreTarget store, String command, String order) {
        return worked(ForkedProbe.start(Jdk.current(), store, dir, "async", command, order, "500").finish(),
                12);
    }
}
