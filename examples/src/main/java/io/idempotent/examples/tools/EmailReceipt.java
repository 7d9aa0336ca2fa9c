package io.idempotent.examples.tools;

/** The mail provider's answer: its message id and the reference we sent along. */
public record EmailReceipt(String messageId, String reference) {
}
