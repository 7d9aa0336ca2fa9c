package io.idempotent.cli;

import io.idempotent.runtime.testing.StoreExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.UUID;

/** The two stores the command line is tested on: an H2 file and a fresh PostgreSQL database. */
enum Stores {
    H2_FILE,
    POSTGRESQL;

    /** One store for one test. */
    record Store(String url, String user, String password) {

        /** The environment an operator's shell would have for this store. */
        Map<String, String> environment() {
            return Map.of("IDEMPOTENT_STORE_URL", url, "IDEMPOTENT_STORE_USER", user,
                    "IDEMPOTENT_STORE_PASSWORD", password);
        }

        Connection connect() throws SQLException {
            return DriverManager.getConnection(url, user, password);
        }
    }

    /** A new, empty store: an H2 file under {@code dir}, or a new database in the embedded PostgreSQL. */
    Store create(Path dir) throws SQLException {
        if (this == H2_FILE) {
            return new Store("jdbc:h2:file:" + dir.resolve("store").resolve("operations").toAbsolutePath()
                    + ";AUTO_SERVER=TRUE", "sa", "");
        }
        String admin = StoreExtension.postgresUrl();
        String database = "cli_" + UUID.randomUUID().toString().replace("-", "");
        try (Connection c = DriverManager.getConnection(admin, "postgres", "postgres");
                Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + database);
        }
        return new Store(admin.replaceFirst("/postgres\\?", "/" + database + "?"), "postgres", "postgres");
    }
}
