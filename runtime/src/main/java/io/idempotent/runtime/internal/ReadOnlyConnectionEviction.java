package io.idempotent.runtime.internal;

import com.zaxxer.hikari.SQLExceptionOverride;
import io.idempotent.runtime.internal.store.SqlStates;
import java.sql.SQLException;

/**
 * Tells the runtime's pool to drop a connection whose server refused a write as read-only
 * (SQLState 25006) once the store runs: during a failover such a connection reaches a primary
 * being demoted or a standby, and keeps refusing every statement for as long as the pool keeps
 * it. Dropped, the next connection is made afresh, and a multi-host URL with
 * {@code targetServerType=primary} finds the new primary. HikariCP decides the rest (its own
 * rules drop connections that failed with a lost connection). Instantiated by HikariCP by name.
 */
public final class ReadOnlyConnectionEviction implements SQLExceptionOverride {

    /** For HikariCP, which creates it by name. */
    public ReadOnlyConnectionEviction() {
    }

    @java.lang.Override
    public Override adjudicate(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && SqlStates.READ_ONLY.equals(sql.getSQLState())) {
                return Override.MUST_EVICT;
            }
        }
        return Override.CONTINUE_EVICT;
    }
}
