package io.idempotent.failover;

import io.idempotent.failover.ReplicatedPostgres.Replication;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit extension that starts replicated PostgreSQL clusters (and PgBouncers in front of them)
 * for a test and ends every server process after it, whether the test passed or failed ({@code @RegisterExtension}).
 */
final class PostgresClusters implements AfterEachCallback {

    private final PostgresInstallation installation = PostgresInstallation.fromBuild();
    private final Path buildWork = Path.of(System.getProperty("build.postgres.work", "target/postgresql"));
    private final Path work = installation.workRoot(buildWork.toString());
    private final List<ReplicatedPostgres> started = new ArrayList<>();
    private final List<PgBouncer> poolers = new ArrayList<>();

    /** A primary and a streaming standby, ended after the test. */
    ReplicatedPostgres start(String name, Replication replication) {
        ReplicatedPostgres cluster = ReplicatedPostgres.start(installation, work, name, replication);
        started.add(cluster);
        return cluster;
    }

    /** PgBouncer in {@code poolMode} in front of {@code cluster}'s primary, ended after the test. */
    PgBouncer pgbouncer(ReplicatedPostgres cluster, String poolMode) {
        PgBouncer pooler = PgBouncer.start(installation, work, cluster.primaryPort(), poolMode);
        poolers.add(pooler);
        return pooler;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        RuntimeException first = null;
        for (PgBouncer pooler : poolers) {
            pooler.close();
        }
        poolers.clear();
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
        // A directory of the system's temporary one is not cleaned by the build: remove it when the
        // test passed (a failed test's logs and data directories stay to be read).
        if (!work.equals(buildWork) && context.getExecutionException().isEmpty()) {
            delete(work);
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + dir, e);
        }
    }
}
