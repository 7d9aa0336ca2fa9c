package io.idempotent.runtime.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.MissingBindingException;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.TestDatabase;

/** The dispatcher the agent's advice calls: enter, then exit, through the global runtime. */
class ToolDispatcherTest {

    private static final String REFUND = "refund(Ljava/lang/String;)Ljava/lang/String;";

    @OnBothDatabases
    void enterClaimsExitStoresAndADuplicateIsAReplay(TestDatabase db) throws Throwable {
        IdempotentRuntime previous = IdempotentRuntime.setGlobal(db.runtime());
        try {
            ToolCall first = ToolDispatcher.enter(DispatchedTools.class, REFUND, new Object[] {"inv_1"});
            assertThat(first).isNotInstanceOf(ReplayedCall.class);
            assertThat(first.exit("refunded inv_1", null)).isEqualTo("refunded inv_1");

            ToolCall second = ToolDispatcher.enter(DispatchedTools.class, REFUND, new Object[] {"inv_1"});
            assertThat(second).isInstanceOf(ReplayedCall.class);
            assertThat(second.exit(null, null)).isEqualTo("refunded inv_1");

            ToolCall failing = ToolDispatcher.enter(DispatchedTools.class, REFUND, new Object[] {"inv_2"});
            java.io.IOException boom = new java.io.IOException("boom");
            assertThatThrownBy(() -> failing.exit(null, boom)).isSameAs(boom);
            assertThat(db.status("refund:inv_2")).isEqualTo("needs_reconciliation");
        } finally {
            IdempotentRuntime.setGlobal(previous);
        }
    }

    @OnBothDatabases
    void classWithoutBindingIsRefusedWithTheFix(TestDatabase db) {
        IdempotentRuntime previous = IdempotentRuntime.setGlobal(db.runtime());
        try {
            assertThatThrownBy(() -> ToolDispatcher.enter(DispatchedTools.WithoutBinding.class, "x()V",
                    new Object[0]))
                    .isInstanceOf(MissingBindingException.class)
                    .hasMessageContaining(DispatchedTools.WithoutBinding.class.getName())
                    .hasMessageContaining("DispatchedTools_WithoutBinding_IdempotentTools")
                    .hasMessageContaining("annotationProcessorPaths");
            assertThatThrownBy(() -> ToolDispatcher.enter(DispatchedTools.class, "other()V", new Object[0]))
                    .isInstanceOf(MissingBindingException.class).hasMessageContaining("other()V");
            assertThat(db.operationRows()).isZero();
        } finally {
            IdempotentRuntime.setGlobal(previous);
        }
    }
}
