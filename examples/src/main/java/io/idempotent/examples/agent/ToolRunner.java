package io.idempotent.examples.agent;

import io.idempotent.examples.providers.Faults.ReplyLostException;
import io.idempotent.examples.providers.Providers;
import io.idempotent.examples.tools.DeploymentTools;
import io.idempotent.examples.tools.LargeRefundTools;
import io.idempotent.examples.tools.RefundTools;
import io.idempotent.examples.tools.WelcomeEmailTools;
import io.idempotent.runtime.ApprovalPendingException;
import io.idempotent.runtime.IdempotencyException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The agent runtime's tool executor, with the retry habits of real agent runtimes: it retries a
 * call whose reply was lost, and waits and retries while another attempt holds the operation.
 * It calls the annotated tool methods directly; the javaagent makes every call go through the
 * idempotency protocol.
 */
public final class ToolRunner {

    private static final int TRANSPORT_RETRIES = 3;
    private static final Duration IN_PROGRESS_DEADLINE = Duration.ofSeconds(30);

    private final RefundTools refunds;
    private final LargeRefundTools largeRefunds;
    private final WelcomeEmailTools email;
    private final DeploymentTools deployments;
    private final Runnable afterEachCall;

    /** Tools over the providers of this JVM. */
    public ToolRunner(Providers providers) {
        this(providers, () -> {
        });
    }

    /** Tools over the providers of this JVM; {@code afterEachCall} runs when each call ends, however. */
    public ToolRunner(Providers providers, Runnable afterEachCall) {
        this.afterEachCall = afterEachCall;
        this.refunds = new RefundTools(providers.payments());
        this.largeRefunds = new LargeRefundTools(providers.largePayments());
        this.email = new WelcomeEmailTools(providers.mail());
        this.deployments = new DeploymentTools(providers.deployments());
    }

    /** Calls the tool once, as the model asked (no retries): what a worker does. */
    public Object callOnce(ToolRequest request) {
        Object[] a = request.arguments().toArray();
        try {
            return switch (request.tool()) {
                case "issue_refund" -> refunds.issueRefund((String) a[0], (Long) a[1], "trace-" + UUID.randomUUID());
                case "issue_large_refund" -> largeRefunds.issueLargeRefund((String) a[0], (Long) a[1],
                        "trace-" + UUID.randomUUID());
                case "send_welcome_email" -> email.sendWelcome((String) a[0], (String) a[1]);
                case "set_target_version" -> deployments.setTargetVersion((String) a[0], (String) a[1]);
                default -> throw new IllegalArgumentException("no tool " + request.tool());
            };
        } finally {
            afterEachCall.run();
        }
    }

    /**
     * Calls the tool and retries the way agent runtimes do: after a lost reply, and while another
     * attempt is in progress (the answer says it is retryable). Returns the result, or the
     * exception the model is told about.
     */
    public Object call(ToolRequest request, Narrator narrator) {
        long deadline = System.nanoTime() + IN_PROGRESS_DEADLINE.toNanos();
        int transportFailures = 0;
        boolean toldWaiting = false;
        while (true) {
            try {
                return callOnce(request);
            } catch (ReplyLostException e) {
                narrator.say("  runtime: " + e.getMessage() + "; retrying");
                if (++transportFailures > TRANSPORT_RETRIES) {
                    return e;
                }
            } catch (ApprovalPendingException e) {
                // Retryable, but it waits for a person, not for another attempt: the session goes on.
                return e;
            } catch (IdempotencyException e) {
                if (!e.retryable() || System.nanoTime() > deadline) {
                    return e;
                }
                if (!toldWaiting) {
                    narrator.say("  runtime: " + e.getClass().getSimpleName() + " (retryable): waiting for the"
                            + " other attempt");
                    toldWaiting = true;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            } catch (RuntimeException e) {
                return e;
            }
        }
    }

    /** Prints the story of the run. */
    @FunctionalInterface
    public interface Narrator {
        /** Prints one line. */
        void say(String line);
    }
}
