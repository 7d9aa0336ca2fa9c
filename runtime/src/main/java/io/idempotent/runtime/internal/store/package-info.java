/**
 * The durable operation records: the store interface, its JDBC implementation and one dialect
 * per database. <strong>Not for public use:</strong> only the engine and the operator view call
 * it. The schema it expects ships as migrations under {@code db/idempotent/} in this jar.
 */
package io.idempotent.runtime.internal.store;
