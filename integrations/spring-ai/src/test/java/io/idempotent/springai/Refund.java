package io.idempotent.springai;

/** What a refund tool returns (and the runtime stores and replays). */
public record Refund(String refundId, String invoiceId, long amountCents, String thread) {
}
