package io.idempotent.benchmarks.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.apache.camel.processor.idempotent.jdbc.JdbcMessageIdRepository;

/**
 * Apache Camel's JDBC idempotent repository (camel-sql), as its idempotent consumer uses it: a
 * fresh message is {@code add(id)} returning true (in one transaction: a {@code SELECT COUNT(*)},
 * then an {@code INSERT}); a duplicate is {@code add(id)} returning false. It stores neither a
 * status nor a result. Its table is the repository's own default ({@code getCreateString()}, with its
 * primary key), created here: the repository's own creation probes the table inside its
 * transaction, which PostgreSQL then aborts.
 */
final class CamelContender implements Contender {

    private final JdbcMessageIdRepository repository;

    CamelContender(DataSource dataSource) throws SQLException {
        repository = new JdbcMessageIdRepository(dataSource, "refund");
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT to_regclass('camel_messageprocessed') IS NULL")) {
                rs.next();
                if (rs.getBoolean(1)) {
                    st.execute(repository.getCreateString());
                }
            }
        }
        repository.setCreateTableIfNotExists(false);
        repository.start();
    }

    @Override
    public String name() {
        return "Camel";
    }

    @Override
    public void fresh(String id) {
        if (!repository.add(id)) {
            throw new IllegalStateException("Camel: " + id + " was not new");
        }
    }

    @Override
    public void replay(String id) {
        if (repository.add(id)) {
            throw new IllegalStateException("Camel: " + id + " was not seen before");
        }
    }

    @Override
    public void close() {
        repository.stop();
    }
}
