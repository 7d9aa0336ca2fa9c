package io.idempotent.cli;

import io.idempotent.examples.providers.Faults;
import io.idempotent.examples.providers.Providers;
import io.idempotent.examples.tools.RefundTools;
import io.idempotent.examples.tools.RefundTools_IdempotentTools;
import io.idempotent.examples.tools.WelcomeEmailTools;
import io.idempotent.examples.tools.WelcomeEmailTools_IdempotentTools;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OperationContext;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.binding.ToolBindings;
import java.nio.file.Path;

/**
 * Records made by the examples' own tools (their generated bindings and policies) and the
 * failures the demo injects, through the runtime as the agent would run them:
 * <ul>
 *   <li>{@code issue_refund refund:inv_1:approval-1}: completed;
 *   <li>{@code issue_refund refund:inv_2:approval-2}: the provider refunded, the reply was lost:
 *       needs_reconciliation;
 *   <li>{@code send_welcome_email welcome:u_1:signup-1}: the mail went out, the reply was lost:
 *       needs_reconciliation;
 *   <li>{@code send_welcome_email welcome:u_2:signup-2}: the connection broke after the effect
 *       boundary, before the provider saw the request: needs_reconciliation (a person can see the
 *       provider has nothing and settle it as not applied).
 * </ul>
 */
final class ExampleRecords {

    static final String REFUND = "issue_refund";
    static final String EMAIL = "send_welcome_email";
    static final String COMPLETED_REFUND = "refund:inv_1:approval-1";
    static final String LOST_REFUND = "refund:inv_2:approval-2";
    static final String LOST_EMAIL = "welcome:u_1:signup-1";
    static final String UNSENT_EMAIL = "welcome:u_2:signup-2";

    private ExampleRecords() {
    }

    /** Writes the records into the store at {@code url}; the providers' state goes under {@code providerDir}. */
    static void write(String url, String user, String password, Path providerDir) {
        Providers providers = Providers.open(providerDir);
        RefundTools refunds = new RefundTools(providers.payments());
        WelcomeEmailTools emails = new WelcomeEmailTools(providers.mail());
        ToolBinding refund = binding(new RefundTools_IdempotentTools(), REFUND);
        ToolBinding email = binding(new WelcomeEmailTools_IdempotentTools(), EMAIL);
        try (IdempotentRuntime runtime = IdempotentRuntime.builder().store("default", url, user, password).build()) {
            try (Step step = Step.begin("approval-1")) {
                runtime.call(refund, new Object[] {"inv_1", 500L, "trace-1"},
                        () -> refunds.issueRefund("inv_1", 500L, "trace-1"));
            }
            try (Step step = Step.begin("approval-2")) {
                providers.faults().next("psp", Faults.Fault.LOSE_REPLY);
                expectFailure(() -> runtime.call(refund, new Object[] {"inv_2", 700L, "trace-2"},
                        () -> refunds.issueRefund("inv_2", 700L, "trace-2")));
            }
            try (Step step = Step.begin("signup-1")) {
                providers.faults().next("mail", Faults.Fault.LOSE_REPLY);
                expectFailure(() -> runtime.call(email, new Object[] {"u_1", "u1@example.com"},
                        () -> emails.sendWelcome("u_1", "u1@example.com")));
            }
            try (Step step = Step.begin("signup-2")) {
                expectFailure(() -> runtime.call(email, new Object[] {"u_2", "u2@example.com"}, () -> {
                    OperationContext.current().effectStarting("idem:" + UNSENT_EMAIL);
                    throw new IllegalStateException("connection reset before the request was sent");
                }));
            }
        }
    }

    /**
     * Calls the completed refund again {@code times} times, as a looping agent would: each
     * duplicate is answered the stored result and adds a row to the key's attempt log.
     */
    static void replayCompletedRefund(String url, String user, String password, int times) {
        ToolBinding refund = binding(new RefundTools_IdempotentTools(), REFUND);
        try (IdempotentRuntime runtime = IdempotentRuntime.builder().store("default", url, user, password).build();
                Step step = Step.begin("approval-1")) {
            for (int i = 0; i < times; i++) {
                runtime.call(refund, new Object[] {"inv_1", 500L, "trace-1"}, () -> {
                    throw new AssertionError("the body ran for a completed operation");
                });
            }
        }
    }

    private static ToolBinding binding(ToolBindings bindings, String tool) {
        return bindings.tools().stream().filter(b -> b.policy().name().equals(tool)).findFirst().orElseThrow();
    }

    private interface Failing {
        Object run() throws Throwable;
    }

    private static void expectFailure(Failing call) {
        try {
            call.run();
        } catch (Throwable expected) {
            return;
        }
        throw new AssertionError("the injected failure did not happen");
    }
}
