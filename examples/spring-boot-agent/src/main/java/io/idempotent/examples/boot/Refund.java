package io.idempotent.examples.boot;

/** The tool's result, stored by the runtime and replayed to repeats. */
public record Refund(String refundId, String invoiceId, long amountCents) {
}
