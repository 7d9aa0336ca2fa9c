package io.idempotent.test.tools;

import io.idempotent.annotations.Approval;
import io.idempotent.annotations.EffectBoundary;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.OperationContext;
import io.idempotent.test.ProviderDouble;
import java.util.concurrent.CompletableFuture;

/** Tools that a person approves first, each keeping its contract once approved. */
public class ApprovalTools {

    private final PaymentClient payments;
    private final ProviderDouble mail;

    /** Tools on a payment client and a mail double. */
    public ApprovalTools(PaymentClient payments, ProviderDouble mail) {
        this.payments = payments;
        this.mail = mail;
    }

    /** A refund above the limit: approved first; the downstream deduplicates the key. */
    @IdempotentTool(key = "large_refund:{invoiceId}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.UNCERTAIN, approval = Approval.REQUIRED, approvalValidity = "PT1H",
            name = "kit_large_refund")
    public Receipt largeRefund(String invoiceId, long cents) {
        String key = OperationContext.current().key();
        return new Receipt(payments.refund(invoiceId, cents, key), key);
    }

    /** The large refund as an asynchronous tool: the value arrives on the client's thread. */
    @IdempotentTool(key = "large_refund_later:{invoiceId}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.UNCERTAIN, approval = Approval.REQUIRED, name = "kit_large_refund_later")
    public CompletableFuture<Receipt> largeRefundLater(String invoiceId, long cents) {
        String key = OperationContext.current().key(); // before the value is awaited, where the context holds
        return CompletableFuture.supplyAsync(() -> new Receipt(payments.refund(invoiceId, cents, key), key));
    }

    /** A mass email: approved first; the downstream does not deduplicate, but can be asked. */
    @IdempotentTool(key = "mass_mail:{listId}", downstreamKey = false, reconciler = MailReconciler.class,
            retry = Retry.UNCERTAIN, effectBoundary = EffectBoundary.MARKED, approval = Approval.REQUIRED,
            name = "kit_mass_mail")
    public Receipt massMail(String listId, String text) {
        OperationContext op = OperationContext.current();
        op.effectStarting("mail:" + op.key());
        return mail.request(op.key(), () -> new Receipt("msg-" + listId + "-" + text.length(), op.key()));
    }
}
