package io.idempotent.runtime.internal.store;

import static io.idempotent.runtime.internal.store.StoreTables.ATTEMPTS_VIEW;
import static io.idempotent.runtime.internal.store.StoreTables.LOG;
import static io.idempotent.runtime.internal.store.StoreTables.LOG_COLUMNS;
import static io.idempotent.runtime.internal.store.StoreTables.OPEN;

import io.idempotent.runtime.SchemaMode;
import io.idempotent.runtime.StoreConfigurationException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The check of one store's schema: the tables, views and columns the store reads, a query per
 * table that compiles only if they exist, and the configuration error of a schema that is not
 * this library's, naming what it lacks (read from the catalogue) and the migrations that make
 * it. Apart from {@link StoreSchema}, which prepares the schema (refusals, the migrations in
 * {@code create} mode, retries), because the check reads what exists and changes nothing.
 */
final class SchemaCheck {

    private final Dialect dialect;
    private final SchemaMode schemaMode;
    private final StoreFailures failures;

    SchemaCheck(Dialect dialect, SchemaMode schemaMode, StoreFailures failures) {
        this.dialect = dialect;
        this.schemaMode = schemaMode;
        this.failures = failures;
        this.schema = schema(dialect);
    }

    /**
     * The tables and views of the schema and the columns the store reads of each; {@code latest}
     * only the view has, so an older schema's table of that name is refused.
     */
    private final Map<String, List<String>> schema;

    private static Map<String, List<String>> schema(Dialect dialect) {
        List<String> operations = new ArrayList<>();
        for (String column : Rows.NAMES) {
            if (!column.equals("lease_expired") && !column.equals("read_at")) {
                operations.add(column);
            }
        }
        operations.addAll(List.of("retention_ms", "attempt_outcome", "attempt_token",
                "attempt_downstream_id", "attempt_detail", "attempt_started_at", "attempt_ended_at"));
        List<String> log = new ArrayList<>(List.of("id"));
        log.addAll(List.of(LOG_COLUMNS.split(", ")));
        List<String> view = new ArrayList<>(log);
        view.add("latest");
        Map<String, List<String>> schema = new LinkedHashMap<>();
        schema.put("tool_operations", List.copyOf(operations));
        schema.put(LOG, List.copyOf(log));
        schema.put(ATTEMPTS_VIEW, List.copyOf(view));
        if (dialect.keepsOpenOperations()) {
            schema.put(OPEN, List.of("tool", "operation_key", "status", "created_at"));
        }
        schema.put(StoreTables.APPROVALS, List.of(StoreTables.APPROVAL_COLUMNS.split(", ")));
        schema.put(StoreTables.OUTBOX, List.of(StoreTables.OUTBOX_COLUMNS.split(", ")));
        return java.util.Collections.unmodifiableMap(schema);
    }

    /**
     * Checks that every table and column exists: each query compiles only if they do. A failure
     * is thrown as it is; the caller tells a schema that is not this library's (class 42) from a
     * store that did not answer, which the next call checks again.
     */
    void validateSchema(Connection c) throws SQLException {
        for (Map.Entry<String, List<String>> table : schema.entrySet()) {
            try (Statement st = c.createStatement(); ResultSet ignored = st.executeQuery("SELECT "
                    + String.join(", ", table.getValue()) + " FROM " + table.getKey() + " WHERE 1 = 0")) {
                // compiled: the table and its columns exist
            }
        }
    }

    /**
     * The configuration error of a schema that is not this library's, naming the table or the
     * columns that are missing (read from the database's catalogue, never from its message,
     * which quotes SQL).
     */
    StoreConfigurationException schemaMismatch(Connection c, SQLException e, ClaimFate claimed) {
        SqlStates.Failure failure = SqlStates.classify(e);
        String code = failure.code();
        String missing;
        try {
            missing = missingFromSchema(c);
        } catch (SQLException unreadable) {
            e.addSuppressed(unreadable);
            missing = null;
        }
        String described = failures.described();
        String migration = migrationsFor(missing);
        if (missing == null) {
            return new StoreConfigurationException(null, null, "could not prepare the schema of " + described + ": "
                    + failure.problem() + " (" + code + ")" + claimed.said(), failure.advice(), e);
        }
        boolean foreign = missing.contains(" exists but ");
        String happened = "could not prepare the schema of " + described + ": the schema is missing or incomplete: "
                + missing + " (" + code + ")"
                + (foreign ? "; it belongs to another application or an older schema of this library" : "")
                + claimed.said();
        String advice;
        if (foreign) {
            advice = "Point store.url at a database or schema of the store's own (or rename that table); for this"
                    + " library's older schema, apply " + migration;
        } else if (schemaMode == SchemaMode.CREATE) {
            advice = "Grant the store's user CREATE in its schema, or apply " + migration + " and set"
                    + " store.schema=validate";
        } else {
            advice = "Apply " + migration + " (Flyway or Liquibase), or set store.schema=create";
        }
        return new StoreConfigurationException(null, null, happened, advice, e);
    }

    /**
     * The migrations that make what {@code missing} names (null: unknown, all of them): the one
     * that creates the missing table and the ones after it, as the advice names them.
     */
    private String migrationsFor(String missing) {
        List<Dialect.Migration> migrations = dialect.migrations();
        int from = 0;
        for (int i = 1; i < migrations.size(); i++) {
            if (missing != null && missing.startsWith("table " + migrations.get(i).mark() + " ")) {
                from = i;
            }
        }
        List<String> resources = migrations.subList(from, migrations.size()).stream()
                .map(Dialect.Migration::resource).toList();
        return (resources.size() == 1 ? "the migration " + resources.get(0) : "the migrations "
                + String.join(" and ", resources) + ", in this order,") + " from idempotent-runtime.jar";
    }

    /** What the schema lacks ("table T does not exist", "table T exists but has no column C"), or null. */
    private String missingFromSchema(Connection c) throws SQLException {
        DatabaseMetaData meta = c.getMetaData();
        for (Map.Entry<String, List<String>> table : schema.entrySet()) {
            Set<String> present = columnsOf(c, meta, table.getKey());
            String kind = table.getKey().equals(ATTEMPTS_VIEW) ? "view " : "table ";
            if (present.isEmpty()) {
                return kind + table.getKey() + " does not exist";
            }
            List<String> missing = table.getValue().stream().filter(column -> !present.contains(column)).toList();
            if (!missing.isEmpty()) {
                int shown = Math.min(missing.size(), 5);
                return kind + table.getKey() + " exists but has no column" + (missing.size() > 1 ? "s " : " ")
                        + String.join(", ", missing.subList(0, shown))
                        + (missing.size() > shown ? " and " + (missing.size() - shown) + " more" : "");
            }
        }
        return null;
    }

    /** The column names (lower case) of {@code table} in the connection's current schema. */
    static Set<String> columnsOf(Connection c, DatabaseMetaData meta, String table) throws SQLException {
        String escape = meta.getSearchStringEscape();
        String schema = c.getSchema();
        Set<String> columns = new HashSet<>();
        // PostgreSQL keeps unquoted names in lower case, H2 in upper case.
        for (String spelled : List.of(table, table.toUpperCase(Locale.ROOT))) {
            String pattern = escape == null ? spelled : spelled.replace("_", escape + "_");
            try (ResultSet rs = meta.getColumns(null, schema, pattern, null)) {
                while (rs.next()) {
                    columns.add(rs.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
                }
            }
            if (!columns.isEmpty()) {
                break;
            }
        }
        return columns;
    }
}
