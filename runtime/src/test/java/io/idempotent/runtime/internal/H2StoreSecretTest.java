package io.idempotent.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded store's secret: one per database, created once however many open it at once. */
class H2StoreSecretTest {

    @Test
    void openersStartingAtTheSameMomentAllGetTheOneSecretTheFirstCreated(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("store").resolve("operations.secret");
        int openers = 8;
        CyclicBarrier start = new CyclicBarrier(openers);
        ExecutorService pool = Executors.newFixedThreadPool(openers);
        try {
            List<Future<String>> secrets = new ArrayList<>();
            for (int i = 0; i < openers; i++) {
                Callable<String> open = () -> {
                    start.await(10, TimeUnit.SECONDS);
                    return H2StoreSecret.readOrCreate("default", file, Duration.ofSeconds(10));
                };
                secrets.add(pool.submit(open));
            }
            Set<String> distinct = new java.util.HashSet<>();
            for (Future<String> secret : secrets) {
                distinct.add(secret.get(20, TimeUnit.SECONDS));
            }
            assertThat(distinct).hasSize(1);
            assertThat(distinct.iterator().next()).hasSizeGreaterThanOrEqualTo(40);
            assertThat(Files.readString(file).strip()).isEqualTo(distinct.iterator().next());
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())))
                    .isEqualTo("rwx------");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theSecretLivesBesideTheDatabaseFile() {
        assertThat(H2StoreSecret.fileFor("jdbc:h2:file:/var/ops/operations;AUTO_SERVER=TRUE"))
                .isEqualTo(Path.of("/var/ops/operations.secret"));
        assertThat(H2StoreSecret.fileFor("jdbc:h2:./.idempotent/operations;AUTO_SERVER=TRUE"))
                .isEqualTo(Path.of(".idempotent/operations.secret").toAbsolutePath());
        assertThat(H2StoreSecret.fileFor("jdbc:h2:~/ops")).isEqualTo(Path.of(System.getProperty("user.home"),
                "ops.secret"));
        assertThat(H2StoreSecret.fileFor("jdbc:h2:split:/var/ops")).isNull();
    }

    @Test
    void urlsOfAnH2ServerGetDurableCommitsToo() {
        assertThat(DataSources.durable("jdbc:h2:tcp://db:9092/ops")).isEqualTo("jdbc:h2:tcp://db:9092/ops;WRITE_DELAY=0");
        assertThat(DataSources.durable("jdbc:h2:ssl://db:9092/ops;WRITE_DELAY=100"))
                .isEqualTo("jdbc:h2:ssl://db:9092/ops;WRITE_DELAY=100");
    }
}
