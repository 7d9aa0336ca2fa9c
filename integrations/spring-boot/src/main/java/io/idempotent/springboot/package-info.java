/**
 * Spring Boot Actuator readiness for idempotent tools: the health indicator {@code idempotent},
 * auto-configured on Boot 4 ({@link io.idempotent.springboot.IdempotentHealthAutoConfiguration})
 * and Boot 3 ({@link io.idempotent.springboot.IdempotentHealthBoot3AutoConfiguration}). Both
 * report {@link io.idempotent.runtime.ReadinessReport}.
 */
package io.idempotent.springboot;
