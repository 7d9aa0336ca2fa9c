package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Several runtimes that start at once on an empty database (several JVMs of one deployment)
 * each create the schema, the attempt log's view included: a loser's CREATE that meets the winner's
 * object is not an error, and every call is answered.
 */
class ConcurrentSchemaCreationTest {

    private static final ToolPolicy TOOL = Policies.downstreamKey("refund", Retry.SAFE).build();

    @OnBothDatabases
    void runtimesCreatingTheSchemaAtOnceAllGetIt(TestDatabase db) throws Exception {
        int runtimes = 6;
        FakeProvider provider = new FakeProvider();
        CyclicBarrier start = new CyclicBarrier(runtimes);
        ExecutorService pool = Executors.newFixedThreadPool(runtimes);
        try {
            List<Future<String>> answers = new ArrayList<>();
            for (int i = 0; i < runtimes; i++) {
                IdempotentRuntime runtime = db.track(db.runtimeBuilder().build());
                answers.add(pool.submit(() -> {
                    start.await(30, TimeUnit.SECONDS);
                    return runtime.call(TOOL, "refund:1", Map.of("id", "1"), String.class,
                            () -> provider.apply("refund"));
                }));
            }
            for (Future<String> answer : answers) {
                // A claim that meets another runtime's running call is answered "in progress":
                // that is a real answer too; a schema error would fail the call otherwise.
                try {
                    assertThat(answer.get(60, TimeUnit.SECONDS)).isEqualTo("done:refund");
                } catch (java.util.concurrent.ExecutionException e) {
                    assertThat(e.getCause()).isInstanceOf(OperationInProgressException.class);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(provider.effects()).isEqualTo(1);
        assertThat(db.status("refund:1")).isEqualTo("completed");
    }
}
