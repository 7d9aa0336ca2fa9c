package io.idempotent.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Excludes a parameter of an {@link IdempotentTool} method from the payload hash: trace ids,
 * deadlines, clients and other values that may differ between two deliveries of the same
 * operation. Every other parameter is part of the payload, and the same key with a different
 * payload is rejected with a payload conflict.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface NotPayload {
}
