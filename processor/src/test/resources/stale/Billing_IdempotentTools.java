package stale;

/** A binding left in the sources (copied from a build's output): the processor cannot write its own. */
public final class Billing_IdempotentTools {
}
