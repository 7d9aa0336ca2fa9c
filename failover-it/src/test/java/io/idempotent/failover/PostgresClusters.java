package io.idempotent.failover;

import io.idempotent.failover.ReplicatedPostgres.Replication;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit extension that starts replicated PostgreSQL clusters for a test and ends every server
 * process after it, whether the test passed or failed ({@code @RegisterExtension}).
 */
final class PostgresClusters implements AfterEachCallback {

    private final PostgresInstallation installation = PostgresInstallation.fromBuild();
    private final Path work = Path.of(System.getProperty("build.postgres.work", "target/postgresql"));
    private final List<ReplicatedPostgres> started = new ArrayList<>();

    /** A primary and a streaming standby, ended after the test. */
    ReplicatedPostgres start(String name, Replication replication) {
        ReplicatedPostgres cluster = ReplicatedPostgres.start(installation, work, name, replication);
        started.add(cluster);
        return cluster;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        RuntimeException first = null;
        for (ReplicatedPostgres cluster : started) {
            try {
                cluster.close();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        started.clear();
        if (first != null) {
            throw first;
        }
    }
}
