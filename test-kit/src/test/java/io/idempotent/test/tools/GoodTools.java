package io.idempotent.test.tools;

import io.idempotent.annotations.EffectBoundary;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;
import io.idempotent.runtime.OperationContext;
import io.idempotent.test.ProviderDouble;

/** Tools that keep their contract, one per honest answer to "what about the external effect?". */
public class GoodTools {

    private final PaymentClient payments;
    private final ProviderDouble mail;

    /** Tools on a payment client and a mail double. */
    public GoodTools(PaymentClient payments, ProviderDouble mail) {
        this.payments = payments;
        this.mail = mail;
    }

    /** The downstream deduplicates the key: an uncertain refund is re-sent under it. */
    @IdempotentTool(key = "refund:{invoiceId}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.UNCERTAIN, name = "kit_refund")
    public Receipt refund(String invoiceId, long cents) {
        String key = OperationContext.current().key();
        return new Receipt(payments.refund(invoiceId, cents, key), key);
    }

    /** The downstream does not deduplicate, but can be asked: {@link MailReconciler}. */
    @IdempotentTool(key = "welcome:{userId}", downstreamKey = false, reconciler = MailReconciler.class,
            retry = Retry.UNCERTAIN, effectBoundary = EffectBoundary.MARKED, name = "kit_welcome")
    public Receipt welcome(String userId, String text) {
        OperationContext op = OperationContext.current();
        op.effectStarting("mail:" + op.key());
        return mail.request(op.key(), () -> new Receipt("msg-" + userId + "-" + text.length(), op.key()));
    }

    /** Nobody can ask the downstream: a person decides. */
    @IdempotentTool(key = "notify:{userId}", downstreamKey = false, reconciler = ManualReview.class,
            retry = Retry.SAFE, name = "kit_notify")
    public Receipt notify(String userId, String text) {
        String key = OperationContext.current().key();
        return mail.request(key, () -> new Receipt("sms-" + userId + "-" + text.length(), key));
    }
}
