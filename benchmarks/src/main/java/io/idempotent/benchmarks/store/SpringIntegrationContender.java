package io.idempotent.benchmarks.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.springframework.integration.jdbc.metadata.JdbcMetadataStore;

/**
 * Spring Integration's JDBC metadata store (spring-integration-jdbc), used as its idempotent
 * receiver uses a {@code ConcurrentMetadataStore}: a fresh message is {@code putIfAbsent(id, value)}
 * answering null (one conditional {@code INSERT}); a duplicate answers the stored value (the
 * {@code INSERT} changes nothing, then a {@code SELECT}). Its table is created from the schema
 * script in the library's own jar.
 */
final class SpringIntegrationContender implements Contender {

    private static final String SCHEMA = "org/springframework/integration/jdbc/schema-postgresql.sql";

    private final JdbcMetadataStore store;

    SpringIntegrationContender(DataSource dataSource) throws SQLException, IOException {
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT to_regclass('int_metadata_store') IS NULL")) {
                rs.next();
                if (rs.getBoolean(1)) {
                    st.execute(metadataTable());
                }
            }
        }
        store = new JdbcMetadataStore(dataSource);
        store.afterPropertiesSet();
        store.start();
    }

    /** The library's own CREATE TABLE of its metadata store. */
    private static String metadataTable() throws IOException {
        String script;
        try (InputStream in = JdbcMetadataStore.class.getClassLoader().getResourceAsStream(SCHEMA)) {
            if (in == null) {
                throw new IllegalStateException(SCHEMA + " is not on the class path");
            }
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        int start = script.indexOf("CREATE TABLE INT_METADATA_STORE");
        if (start < 0) {
            throw new IllegalStateException(SCHEMA + " has no INT_METADATA_STORE table");
        }
        return script.substring(start, script.indexOf(';', start));
    }

    @Override
    public String name() {
        return "Spring Int.";
    }

    @Override
    public void fresh(String id) {
        if (store.putIfAbsent(id, "claimed") != null) {
            throw new IllegalStateException("Spring Integration: " + id + " was not new");
        }
    }

    @Override
    public void replay(String id) {
        if (store.putIfAbsent(id, "claimed") == null) {
            throw new IllegalStateException("Spring Integration: " + id + " was not seen before");
        }
    }

    @Override
    public void close() {
        store.stop();
    }
}
