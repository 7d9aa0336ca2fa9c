package io.idempotent.examples.temporal;

/** What a refund returns (and the runtime stores and replays). */
public record Refund(String refundId, String invoiceId, long amountCents) {
}
