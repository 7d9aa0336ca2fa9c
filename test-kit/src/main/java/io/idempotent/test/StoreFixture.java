package io.idempotent.test;

import javax.sql.DataSource;

/** The store of one contract case: a data source on an empty database or schema, dropped afterwards. */
final class StoreFixture implements AutoCloseable {

    /** Drops the case's database or schema. */
    @FunctionalInterface
    interface Cleanup {
        void run() throws Exception;
    }

    private final DataSource dataSource;
    private final Cleanup cleanup;

    StoreFixture(DataSource dataSource, Cleanup cleanup) {
        this.dataSource = dataSource;
        this.cleanup = cleanup;
    }

    DataSource dataSource() {
        return dataSource;
    }

    @Override
    public void close() throws Exception {
        cleanup.run();
    }
}
