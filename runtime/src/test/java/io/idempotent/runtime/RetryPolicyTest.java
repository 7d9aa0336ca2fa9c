package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.util.Map;

/** What each Retry policy re-executes, on H2 and PostgreSQL. */
class RetryPolicyTest {

    private static final Map<String, Object> PAYLOAD = Map.of("id", "x");

    @OnBothDatabases
    void neverDoesNotReRunAFailedSafeOperation(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy deploy = Policies.marked("deploy", Retry.NEVER).build();
        assertThatThrownBy(() -> runtime.call(deploy, "deploy:1", PAYLOAD, String.class, () -> {
            throw new IllegalStateException("before the boundary");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(db.status("deploy:1")).isEqualTo("failed_safe");

        assertThatThrownBy(() -> runtime.call(deploy, "deploy:1", PAYLOAD, String.class, () -> provider.apply("x")))
                .isInstanceOf(OperationFailedException.class)
                .satisfies(e -> assertThat(((IdempotencyException) e).retryable()).isFalse());
        assertThat(provider.invocations()).isZero();
    }

    @OnBothDatabases
    void neverDoesNotTakeOverADeadWorkerEvenBeforeItsBoundary(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy deploy = Policies.marked("deploy", Retry.NEVER).lease(java.time.Duration.ofSeconds(1)).build();
        io.idempotent.runtime.testing.Workers.enterBody(runtime, deploy, "deploy:2", PAYLOAD).abandon();
        db.awaitLeaseExpired("deploy:2");

        assertThatThrownBy(() -> runtime.call(deploy, "deploy:2", PAYLOAD, String.class, () -> provider.apply("x")))
                .isInstanceOf(OperationFailedException.class);
        assertThat(provider.invocations()).isZero();
        assertThat(db.status("deploy:2")).isEqualTo("failed_safe");
        assertThat(db.attemptOutcomes("deploy:2")).containsExactly("RUNNING", "LEASE_EXPIRED", "REFUSED");
    }

    @OnBothDatabases
    void safeReRunsAFailedSafeOperationButNotAnUncertainOne(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        ToolPolicy refund = Policies.downstreamKey("refund", Retry.SAFE).build();
        assertThatThrownBy(() -> runtime.call(refund, "refund:1", PAYLOAD, String.class, () -> {
            provider.apply("refund:1", "refund");
            throw new IllegalStateException("reply lost");
        })).isInstanceOf(IllegalStateException.class);

        assertThatThrownBy(() -> runtime.call(refund, "refund:1", PAYLOAD, String.class,
                () -> provider.apply("refund:1", "refund"))).isInstanceOf(NeedsReconciliationException.class);
        assertThat(provider.invocations()).isEqualTo(1);
    }

    @OnBothDatabases
    void exceptionsSayWhetherTheCallerMayRetry(TestDatabase db) {
        assertThat(new OperationInProgressException("t", "k", "m").retryable()).isTrue();
        assertThat(new StoreUnavailableException("t", "k", "m").retryable()).isTrue();
        assertThat(new LeaseLostException("t", "k", "m").retryable()).isTrue();
        assertThat(new PayloadConflictException("t", "k", "m").retryable()).isFalse();
        assertThat(new NeedsReconciliationException("t", "k", "m").retryable()).isFalse();
        assertThat(new MissingOperationKeyException("t", "no step").retryable()).isFalse();
        assertThat(new OperationFailedException("t", "k", "m").retryable()).isFalse();
        assertThat(new ResultNotReplayableException("t", "k", "m").retryable()).isFalse();
        assertThat(db.operationRows()).isZero();
    }
}
