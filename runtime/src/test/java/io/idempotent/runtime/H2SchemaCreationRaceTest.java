package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.Policies;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Six runtimes creating one new H2 store at once, a hundred times: H2 has no lock to take before
 * its DDL, and its catalogue answered a loser with 90143, 42S22 or HY000 about once in fifty
 * rounds (3 failed calls in 150 rounds before the schema's preparation was tried again on H2);
 * every call must now be answered (done, or "in progress").
 */
class H2SchemaCreationRaceTest {

    @Test
    void sixRuntimesCreatingOneNewH2StoreAtOnceAllGetIt() throws Exception {
        ToolPolicy tool = Policies.downstreamKey("refund", Retry.SAFE).build();
        List<String> seen = new ArrayList<>();
        for (int round = 0; round < 100; round++) {
            String url = "jdbc:h2:mem:r" + UUID.randomUUID().toString().replace("-", "") + ";DB_CLOSE_DELAY=-1";
            List<IdempotentRuntime> runtimes = new ArrayList<>();
            ExecutorService pool = Executors.newFixedThreadPool(6);
            CyclicBarrier start = new CyclicBarrier(6);
            FakeProvider provider = new FakeProvider();
            List<Future<String>> answers = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                IdempotentRuntime r = IdempotentRuntime.builder().store("default", url, "sa", "").build();
                runtimes.add(r);
                answers.add(pool.submit(() -> {
                    start.await(30, TimeUnit.SECONDS);
                    return r.call(tool, "refund:1", Map.of("id", "1"), String.class, () -> provider.apply("x"));
                }));
            }
            for (Future<String> a : answers) {
                try {
                    a.get(60, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                    if (!(e.getCause() instanceof OperationInProgressException)) {
                        seen.add(String.valueOf(e.getCause().getMessage()));
                    }
                }
            }
            pool.shutdownNow();
            runtimes.forEach(IdempotentRuntime::close);
        }
        assertThat(seen).as("calls failed while their runtimes created the schema").isEmpty();
    }
}
