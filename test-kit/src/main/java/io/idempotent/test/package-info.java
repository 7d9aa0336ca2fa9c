/**
 * The contract test kit: proves a user's own {@code @IdempotentTool} methods with the four
 * failure tests of the release gate, below the model layer, with faults injected on both sides of
 * the external call and on the store, on H2 and PostgreSQL. Start at {@link io.idempotent.test.ToolContract}.
 */
package io.idempotent.test;
