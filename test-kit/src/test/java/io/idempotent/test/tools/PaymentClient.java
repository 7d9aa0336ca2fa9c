package io.idempotent.test.tools;

/** The client a refund tool calls: refunds under an idempotency key, returns the refund id. */
public interface PaymentClient {

    /** Refunds {@code cents} of {@code invoiceId} under {@code idempotencyKey}. */
    String refund(String invoiceId, long cents, String idempotencyKey);
}
