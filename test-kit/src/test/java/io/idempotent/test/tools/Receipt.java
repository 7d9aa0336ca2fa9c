package io.idempotent.test.tools;

/** What a tool of the kit's tests returns. */
public record Receipt(String id, String operationKey) {
}
