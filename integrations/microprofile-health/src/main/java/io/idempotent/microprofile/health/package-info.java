/**
 * MicroProfile Health readiness for idempotent tools: the {@code @Readiness} check
 * {@link io.idempotent.microprofile.health.IdempotentReadinessCheck}, found by the application's
 * CDI container (Quarkus with {@code quarkus-smallrye-health}, Helidon, Open Liberty).
 */
package io.idempotent.microprofile.health;
