/**
 * Micronaut readiness for idempotent tools: the {@code @Readiness} health indicator
 * {@link io.idempotent.micronaut.health.IdempotentHealthIndicator} of micronaut-management's health
 * endpoint ({@code /health/readiness}).
 */
package io.idempotent.micronaut.health;
