package io.idempotent.runtime.internal.store;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/** Statement parameters in the order of their {@code ?}. */
final class Params {

    private interface Param {
        void bind(PreparedStatement ps, int index) throws SQLException;
    }

    private final List<Param> params = new ArrayList<>();

    Params str(String value) {
        params.add((ps, i) -> ps.setString(i, value));
        return this;
    }

    Params lng(long value) {
        params.add((ps, i) -> ps.setLong(i, value));
        return this;
    }

    Params time(java.time.Instant value) {
        params.add((ps, i) -> ps.setObject(i, OffsetDateTime.ofInstant(value, java.time.ZoneOffset.UTC)));
        return this;
    }

    Params bool(boolean value) {
        params.add((ps, i) -> ps.setBoolean(i, value));
        return this;
    }

    /** These parameters followed by {@code more}. */
    Params then(Params more) {
        Params all = new Params();
        all.params.addAll(params);
        all.params.addAll(more.params);
        return all;
    }

    void bind(PreparedStatement ps) throws SQLException {
        for (int i = 0; i < params.size(); i++) {
            params.get(i).bind(ps, i + 1);
        }
    }
}
