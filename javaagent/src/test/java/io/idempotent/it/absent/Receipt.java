package io.idempotent.it.absent;

/**
 * The result of {@link OptionalDependencyTools#receipt}. The forked test removes this class from
 * the application's class path, as an optional dependency that is not deployed would be, so that
 * the agent cannot resolve the tool's return type and its transformation fails.
 */
public record Receipt(String orderId) {
}
