package io.idempotent.cli;

/**
 * A settlement the operator reviewed in the console and has not confirmed yet; it waits in
 * {@link ConsoleConfirmations}, which decides who may confirm it and when.
 */
record PendingSettlement(String tool, String key, boolean applied, String resultJson, String reason,
        String operator) {
}
