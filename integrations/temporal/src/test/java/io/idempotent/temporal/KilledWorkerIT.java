package io.idempotent.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.testing.AttachedAgent;
import io.idempotent.runtime.testing.Database;
import io.idempotent.runtime.testing.StoreExtension;
import io.idempotent.runtime.testing.TestDatabase;
import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import io.temporal.testserver.TestServer;
import io.temporal.worker.WorkerFactory;
import io.temporal.worker.WorkerFactoryOptions;
import io.temporal.worker.WorkerOptions;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A worker JVM killed (SIGKILL) after the effect. Temporal's test server listens on a port; the
 * first attempt runs in a forked JVM started with {@code -javaagent:} on the built agent jar, which
 * is killed once the effect is made; the retry after the 3 s start-to-close timeout runs on a
 * worker in this JVM (agent attached), against the same store (an H2 file served by this JVM, or
 * PostgreSQL). The workflow's own worker lives in this JVM throughout, so no workflow task has to
 * move off the dead worker.
 *
 * <p>No field or signature of this class names a tool class: JUnit would load it before the agent
 * attaches.
 */
class KilledWorkerIT {

    private static final String TOOL = "temporal_file_refund";

    @TempDir
    Path dir;

    /**
     * Killed inside the body, after the effect: the tool has no downstream key and a manual-review
     * reconciler, so once the dead worker's lease expired the retry is told "needs reconciliation",
     * non-retryable, and the workflow reads the type; never a second payment.
     */
    @ParameterizedTest
    @EnumSource(Database.class)
    void aWorkerKilledInsideTheBodyAfterTheEffectLeavesTheOperationToReconciliation(Database database)
            throws Exception {
        Outcome outcome = killAWorkerAndRetry(database, "body", "effect made ");

        assertThat(outcome.payments()).as("payments").hasSize(1);
        assertThat(outcome.answer()).isEqualTo("failure:io.idempotent.runtime.NeedsReconciliationException");
        assertThat(outcome.status()).isEqualTo("needs_reconciliation");
    }

    /**
     * Killed after the tool stored its result, before Temporal heard it: the retry on the other
     * worker replays the result the dead JVM stored (its id names that JVM).
     */
    @Test
    void aWorkerKilledAfterTheResultWasStoredIsReplayedOnAnotherWorker() throws Exception {
        Outcome outcome = killAWorkerAndRetry(Database.H2, "reply", "result stored ");

        assertThat(outcome.payments()).as("payments").hasSize(1);
        assertThat(outcome.answer()).isEqualTo(outcome.payments().get(0))
                .endsWith("_by_" + outcome.killedPid());
        assertThat(outcome.status()).isEqualTo("completed");
    }

    private record Outcome(List<String> payments, String answer, String status, long killedPid) {
    }

    private Outcome killAWorkerAndRetry(Database database, String stallAt, String effectLine) throws Exception {
        AttachedAgent.attach();
        Store store = Store.of(database, dir);
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        PaymentFile payments = new PaymentFile(dir.resolve("payments.txt"));
        String queue = "desk-" + UUID.randomUUID();
        String activityQueue = queue + "-activities";
        List<WorkerFactory> factories = new ArrayList<>();
        Process forked = null;
        List<String> forkedLines = new CopyOnWriteArrayList<>();
        // This JVM opens the store first and keeps it open: the H2 file's server lives here, not in
        // the JVM to kill.
        try (var server = TestServer.createPortBoundServer(port, false);
                IdempotentRuntime runtime = store.runtime();
                Connection keepOpen = store.connect()) {
            IdempotentRuntime.setGlobal(runtime);
            WorkflowServiceStubs service = WorkflowServiceStubs.newServiceStubs(
                    WorkflowServiceStubsOptions.newBuilder().setTarget("127.0.0.1:" + port).build());
            WorkflowClient client = WorkflowClient.newInstance(service);
            try {
                WorkerFactory workflows = factory(client, factories);
                workflows.newWorker(queue, WorkerOptions.newBuilder().setDefaultDeadlockDetectionTimeout(10_000)
                        .build()).registerWorkflowImplementationTypes(RemoteRefundDeskImpl.class);
                workflows.start();

                forked = fork(store, "127.0.0.1:" + port, activityQueue, payments, stallAt, forkedLines);
                RemoteRefundDesk desk = client.newWorkflowStub(RemoteRefundDesk.class, WorkflowOptions.newBuilder()
                        .setTaskQueue(queue).setWorkflowId("killed-worker-" + UUID.randomUUID())
                        .setWorkflowExecutionTimeout(Duration.ofMinutes(2)).build());
                WorkflowExecution run = WorkflowClient.start(desk::refund, "inv_9", 900L, activityQueue);

                TestDatabase.await(() -> forkedLines.stream().anyMatch(l -> l.startsWith(effectLine)),
                        Duration.ofSeconds(60), "the forked worker's line '" + effectLine + "'; it printed: "
                                + forkedLines);
                long killedPid = forked.pid();
                forked.destroyForcibly(); // SIGKILL: no shutdown hook, no reply, no lease release
                assertThat(forked.waitFor(30, TimeUnit.SECONDS)).isTrue();
                assertThat(payments.payments()).hasSize(1);
                // The first attempt really ran under the agent from its jar, which wrapped without error.
                assertThat(forkedLines).as("the forked worker's output")
                        .anyMatch(l -> l.startsWith("[idempotent-agent] started: wrapped"))
                        .noneMatch(l -> l.contains("[idempotent-agent] ERROR"));

                // Another worker takes the retry Temporal schedules after the start-to-close timeout.
                WorkerFactory other = factory(client, factories);
                other.newWorker(activityQueue).registerActivitiesImplementations(
                        new FileLedgerRefundActivities(payments, false));
                other.start();
                String answer = WorkflowStub.fromTyped(desk).getResult(30, TimeUnit.SECONDS, String.class);

                List<String> keys = store.keys();
                assertThat(keys).hasSize(1);
                assertThat(keys.get(0)).startsWith("refund:temporal:run:" + run.getRunId() + ":activity:");
                return new Outcome(payments.payments(), answer, store.status(keys.get(0)), killedPid);
            } finally {
                for (WorkerFactory factory : factories) {
                    factory.shutdownNow();
                    factory.awaitTermination(10, TimeUnit.SECONDS);
                }
                if (forked != null) {
                    forked.destroyForcibly();
                    forked.waitFor(30, TimeUnit.SECONDS);
                }
                service.shutdownNow();
                store.dropTables();
            }
        }
    }

    private static WorkerFactory factory(WorkflowClient client, List<WorkerFactory> factories) {
        WorkerFactory factory = WorkerFactory.newInstance(client, WorkerFactoryOptions.newBuilder()
                .setWorkerInterceptors(new IdempotentWorkerInterceptor()).build());
        factories.add(factory);
        return factory;
    }

    /** The activity worker JVM: the agent from its jar, the store from system properties. */
    private static Process fork(Store store, String target, String activityQueue, PaymentFile payments,
            String stallAt, List<String> lines) throws Exception {
        String agentJar = System.getProperty("build.test.agentJar");
        String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.equals(agentJar) && !entry.contains("byte-buddy")
                        && !Path.of(entry).endsWith(Path.of("javaagent", "target", "classes")))
                .collect(Collectors.joining(File.pathSeparator));
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx256m", "-XX:TieredStopAtLevel=1", "-javaagent:" + agentJar,
                "-Didempotent.store.url=" + store.url(), "-Didempotent.store.user=" + store.user(),
                "-Didempotent.store.password=" + store.password(), "-cp", classPath,
                ActivityWorkerMain.class.getName(), target, activityQueue, payments.file().toString(), stallAt));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().keySet().removeIf(name -> name.startsWith("IDEMPOTENT_")
                || name.equals("JAVA_TOOL_OPTIONS") || name.equals("JDK_JAVA_OPTIONS"));
        Process process = builder.start();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (java.io.IOException e) {
                // the process ended
            }
        }, "forked-activity-worker");
        reader.setDaemon(true);
        reader.start();
        return process;
    }

    /** The store both JVMs use: an H2 file (served by this JVM) or the embedded PostgreSQL. */
    private record Store(String url, String user, String password) {

        static Store of(Database database, Path dir) {
            return switch (database) {
                case H2 -> new Store("jdbc:h2:file:" + dir.resolve("store").toAbsolutePath() + ";AUTO_SERVER=TRUE",
                        "sa", "sa");
                case POSTGRESQL -> new Store(StoreExtension.postgresUrl(), "postgres", "postgres");
            };
        }

        Connection connect() throws java.sql.SQLException {
            return DriverManager.getConnection(url, user, password);
        }

        IdempotentRuntime runtime() {
            return IdempotentRuntime.builder().store("default", url, user, password).build();
        }

        List<String> keys() throws java.sql.SQLException {
            List<String> keys = new ArrayList<>();
            try (Connection c = connect(); var st = c.prepareStatement(
                    "SELECT operation_key FROM tool_operations WHERE tool = ?")) {
                st.setString(1, TOOL);
                try (var rs = st.executeQuery()) {
                    while (rs.next()) {
                        keys.add(rs.getString(1));
                    }
                }
            }
            return keys;
        }

        String status(String key) throws java.sql.SQLException {
            try (Connection c = connect(); var st = c.prepareStatement(
                    "SELECT status FROM tool_operations WHERE tool = ? AND operation_key = ?")) {
                st.setString(1, TOOL);
                st.setString(2, key);
                try (var rs = st.executeQuery()) {
                    return rs.next() ? rs.getString(1) : null;
                }
            }
        }

        void dropTables() throws java.sql.SQLException {
            try (Connection c = connect(); var st = c.createStatement()) {
                TestDatabase.dropLibraryTables(st);
            }
        }
    }
}
