package io.idempotent.runtime.internal.store;

import io.idempotent.runtime.OperationStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;

/**
 * The column list of {@code tool_operations} and how to read it into a {@link StoredOperation}:
 * the read of one operation by its key (a claim's and an operator's), and the database's times as
 * instants.
 */
final class Rows {

    /** The names of the columns, in their order. */
    static final List<String> NAMES = List.of("operation_key", "tool", "status", "payload_hash", "payload_json",
            "lease_token", "lease_until", "lease_expired", "effect_started", "downstream_id", "result_json",
            "error_json", "attempts", "released_by", "created_at", "updated_at", "expires_at", "attempt_id", "read_at");

    /** The columns under {@code alias} ("" or "t."), with the database's verdicts on the lease and its time. */
    String columns(String alias) {
        StringBuilder list = new StringBuilder();
        for (String name : NAMES) {
            list.append(list.length() == 0 ? "" : ", ").append(switch (name) {
                case "lease_expired" -> "CASE WHEN " + alias + "lease_until IS NOT NULL AND " + alias
                        + "lease_until <= CURRENT_TIMESTAMP THEN TRUE ELSE FALSE END AS lease_expired";
                case "read_at" -> "CURRENT_TIMESTAMP AS read_at";
                default -> alias + name;
            });
        }
        return list.toString();
    }

    StoredOperation read(ResultSet rs) throws SQLException {
        return new StoredOperation(rs.getString("operation_key"), rs.getString("tool"),
                OperationStatus.fromColumn(rs.getString("status")), rs.getString("payload_hash"),
                rs.getString("payload_json"), rs.getLong("lease_token"), instant(rs, "lease_until"),
                rs.getBoolean("lease_expired"), rs.getBoolean("effect_started"), rs.getString("downstream_id"),
                rs.getString("result_json"), rs.getString("error_json"), rs.getInt("attempts"),
                rs.getString("released_by"), instant(rs, "created_at"), instant(rs, "updated_at"),
                instant(rs, "expires_at"), rs.getString("attempt_id"), instant(rs, "read_at"));
    }

    /** The operation {@code (tool, key)}, read on {@code c}. */
    Optional<StoredOperation> find(Connection c, String tool, String key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT " + columns("") + " FROM tool_operations WHERE " + StoreTables.ID)) {
            new Params().str(tool).str(key).bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(read(rs)) : Optional.empty();
            }
        }
    }

    static Instant instant(ResultSet rs, int column) throws SQLException {
        OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
        return t == null ? null : t.toInstant();
    }

    static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
        return t == null ? null : t.toInstant();
    }
}
