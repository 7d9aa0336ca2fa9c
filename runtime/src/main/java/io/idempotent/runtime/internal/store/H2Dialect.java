package io.idempotent.runtime.internal.store;

/**
 * H2 2.x: a change returns its rows through a data change delta table ({@code FINAL TABLE});
 * the claim is a plain {@code INSERT} that the primary key refuses for an existing key.
 */
final class H2Dialect implements Dialect {

    @Override
    public String name() {
        return "h2";
    }

    @Override
    public String nowPlusMillis() {
        return "DATEADD(MILLISECOND, CAST(? AS BIGINT), CURRENT_TIMESTAMP)";
    }

    @Override
    public String returning(String dml, String columns) {
        return "SELECT " + columns + " FROM FINAL TABLE (" + dml + ")";
    }

    @Override
    public boolean claimsInOneStatement() {
        return false;
    }
}
