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
    public String nowPlusMillis(String millis) {
        return "DATEADD(MILLISECOND, " + millis + ", CURRENT_TIMESTAMP)";
    }

    @Override
    public String returning(String dml, String columns) {
        return "SELECT " + columns + " FROM FINAL TABLE (" + dml + ")";
    }

    @Override
    public String deleted(String delete, String columns) {
        return "SELECT " + columns + " FROM OLD TABLE (" + delete + ")";
    }

    @Override
    public String readOnlyQuery() {
        return "SELECT READONLY()";
    }

    @Override
    public boolean dataModifyingWith() {
        return false;
    }
}
