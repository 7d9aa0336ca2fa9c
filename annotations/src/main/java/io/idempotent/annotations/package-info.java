/**
 * The annotations that declare an idempotent tool: {@link io.idempotent.annotations.IdempotentTool},
 * {@link io.idempotent.annotations.Retry}, {@link io.idempotent.annotations.EffectBoundary} and
 * {@link io.idempotent.annotations.NotPayload}. This module has no dependencies.
 */
package io.idempotent.annotations;
