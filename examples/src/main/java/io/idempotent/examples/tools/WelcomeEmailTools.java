package io.idempotent.examples.tools;

import io.idempotent.annotations.EffectBoundary;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.examples.providers.MailProvider;
import io.idempotent.runtime.OperationContext;

/**
 * Answer 2: the downstream does not deduplicate, but can be asked. The mail provider has no
 * idempotency key; the tool sends a reference it derives from the operation key, records it at
 * the effect boundary, and {@link WelcomeEmailReconciler} searches the provider for it before
 * anything is re-sent.
 */
public class WelcomeEmailTools {

    private final MailProvider mail;

    /** Tools on {@code mail}. */
    public WelcomeEmailTools(MailProvider mail) {
        this.mail = mail;
    }

    /** Sends the welcome email of a new user, once per signup step. */
    @IdempotentTool(key = "welcome:{userId}:{step}", downstreamKey = false, reconciler = WelcomeEmailReconciler.class,
            retry = Retry.SAFE, effectBoundary = EffectBoundary.MARKED, lease = "PT2S", name = "send_welcome_email")
    public EmailReceipt sendWelcome(String userId, String address) {
        OperationContext op = OperationContext.current();
        String reference = WelcomeEmailReconciler.reference(op.key());
        // Everything before this line may fail safely; from here on the email may be out.
        op.effectStarting(reference);
        return new EmailReceipt(mail.send(reference, address, "Welcome, " + userId + "!"), reference);
    }
}
