package io.idempotent.agent.forked;

import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.SchemaMode;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the forked JVMs keep their operations: the agent's embedded default (an H2 file under
 * the working directory, nothing configured) or an embedded PostgreSQL, configured the way a
 * user would: the URL as an agent argument, user and password from the environment.
 */
enum StoreTarget {
    H2_DEFAULT,
    POSTGRES;

    private static EmbeddedPostgres postgres;

    /** The agent arguments of a forked JVM, empty for the default store. */
    String agentArguments() {
        return this == POSTGRES ? "=store.url=" + postgresUrl() : "";
    }

    /** The environment a forked JVM adds to a clean one. */
    Map<String, String> environment() {
        return this == POSTGRES ? Map.of("IDEMPOTENT_STORE_USER", "postgres", "IDEMPOTENT_STORE_PASSWORD", "postgres")
                : Map.of();
    }

    /** The line the runtime logs for its store when a JVM started in {@code workingDir} opens it. */
    String runtimeStoreLine(Path workingDir) {
        if (this == POSTGRES) {
            return "store default: " + postgresUrl() + " (schema create)";
        }
        Path dir;
        try {
            dir = workingDir.toRealPath();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return "store default: jdbc:h2:file:./.idempotent/operations;AUTO_SERVER=TRUE;WRITE_DELAY=0 (schema create;"
                + " H2 file " + dir.resolve(".idempotent").resolve("operations") + ".mv.db, shared by every JVM started"
                + " in " + dir + ")";
    }

    /** The operation's status and attempts, read from the table the forked JVMs wrote. */
    Optional<List<Object>> row(Path workingDir, String key) {
        try (Connection c = connect(workingDir);
                PreparedStatement st = c.prepareStatement("SELECT status, attempts, lease_until < CURRENT_TIMESTAMP"
                        + " FROM tool_operations WHERE operation_key = ?")) {
            st.setString(1, key);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? Optional.of(List.of(rs.getString(1), rs.getInt(2), rs.getBoolean(3)))
                        : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read " + key + " from " + this, e);
        }
    }

    /** How many rows of the attempt log of {@code key} have {@code outcome}, read from the table the forked JVMs wrote. */
    long attemptRows(Path workingDir, String key, String outcome) {
        try (Connection c = connect(workingDir);
                PreparedStatement st = c.prepareStatement("SELECT count(*) FROM tool_operation_attempts"
                        + " WHERE operation_key = ? AND outcome = ?")) {
            st.setString(1, key);
            st.setString(2, outcome);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot count the attempts of " + key + " in " + this, e);
        }
    }

    /**
     * A runtime of this (test) JVM on the store the forked JVMs started in {@code workingDir} use,
     * as an operator's process reaches it (the CLI, a workflow granting approvals): the schema
     * only validated, never created.
     */
    IdempotentRuntime operatorRuntime(Path workingDir) {
        IdempotentRuntime.Builder builder = IdempotentRuntime.builder().schema(SchemaMode.VALIDATE);
        if (this == POSTGRES) {
            return builder.store("default", postgresUrl(), "postgres", "postgres").build();
        }
        Path file = workingDir.resolve(".idempotent/operations").toAbsolutePath();
        return builder.store("default", "jdbc:h2:file:" + file + ";AUTO_SERVER=TRUE;IFEXISTS=TRUE", "sa",
                h2Secret(file)).build();
    }

    private Connection connect(Path workingDir) throws SQLException {
        if (this == POSTGRES) {
            return DriverManager.getConnection(postgresUrl(), "postgres", "postgres");
        }
        return connectH2(workingDir);
    }

    /** The status of {@code key} in database {@code database} of the embedded PostgreSQL, or empty. */
    static Optional<String> postgresStatus(String database, String key) {
        try (Connection c = DriverManager.getConnection(postgresUrl().replace("/postgres", "/" + database),
                "postgres", "postgres");
                PreparedStatement st = c.prepareStatement("SELECT status FROM tool_operations WHERE operation_key = ?")) {
            st.setString(1, key);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read " + key + " from database " + database, e);
        }
    }

    /**
     * The host and port of the embedded PostgreSQL, with database {@code database} created in it
     * (a database of another name than the user's, so a URL cut short would reach another one).
     */
    static synchronized String postgresHostWith(String database) {
        String url = postgresUrl();
        try (Connection c = DriverManager.getConnection(url, "postgres", "postgres");
                PreparedStatement exists = c.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
            exists.setString(1, database);
            try (ResultSet rs = exists.executeQuery()) {
                if (!rs.next()) {
                    c.createStatement().execute("CREATE DATABASE " + database);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + database, e);
        }
        return url.substring("jdbc:postgresql://".length(), url.lastIndexOf('/'));
    }

    private static Connection connectH2(Path workingDir) throws SQLException {
        String file = workingDir.resolve(".idempotent/operations").toAbsolutePath().toString();
        String secret = h2Secret(Path.of(file));
        // IFEXISTS: reading must never create an empty database the JVMs would then share.
        return DriverManager.getConnection("jdbc:h2:file:" + file + ";AUTO_SERVER=TRUE;IFEXISTS=TRUE", "sa", secret);
    }

    /** The embedded store's password: the secret its first JVM generated beside it. */
    private static String h2Secret(Path file) {
        try {
            return java.nio.file.Files.readString(Path.of(file + ".secret")).strip();
        } catch (IOException e) {
            throw new IllegalStateException("the embedded store has no secret beside it yet: " + file, e);
        }
    }

    private static synchronized String postgresUrl() {
        if (postgres == null) {
            try {
                postgres = EmbeddedPostgres.start();
            } catch (IOException e) {
                throw new IllegalStateException("cannot start the embedded PostgreSQL", e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(StoreTarget::stopPostgres));
        }
        return "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres";
    }

    private static synchronized void stopPostgres() {
        try {
            if (postgres != null) {
                postgres.close();
            }
        } catch (IOException e) {
            // The JVM is exiting; the data directory is a temporary one.
        }
    }

    @Override
    public String toString() {
        return this == POSTGRES ? "embedded PostgreSQL" : "default H2 store";
    }
}
