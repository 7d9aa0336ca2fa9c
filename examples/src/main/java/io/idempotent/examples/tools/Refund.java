package io.idempotent.examples.tools;

/** The result of a refund, as the payment provider answered it. */
public record Refund(String refundId, String invoiceId, long amountCents) {
}
