/**
 * The outbox's relays and operator view over the stores' {@code tool_operation_outbox}. Not for
 * public use: applications use {@link io.idempotent.runtime.Outbox}.
 */
package io.idempotent.runtime.internal.outbox;
