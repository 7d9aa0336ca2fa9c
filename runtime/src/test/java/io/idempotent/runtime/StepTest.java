package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class StepTest {

    @Test
    void stepIsSetForTheScopeAndNestedStepsRestoreTheOuterOne() {
        assertThat(Step.currentKey()).isEmpty();
        try (Step outer = Step.begin("refund:invoice_842:approved_17")) {
            assertThat(Step.currentKey()).contains("refund:invoice_842:approved_17");
            try (Step inner = Step.begin("notify:invoice_842")) {
                assertThat(Step.currentKey()).contains("notify:invoice_842");
            }
            assertThat(Step.currentKey()).contains(outer.key());
        }
        assertThat(Step.currentKey()).isEmpty();
    }

    @Test
    void stepIsCarriedToOtherThreadsOnlyWhenWrapped() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Step ignored = Step.begin("step-a")) {
            AtomicReference<Object> plain = new AtomicReference<>();
            pool.submit(() -> plain.set(Step.currentKey())).get(10, TimeUnit.SECONDS);
            assertThat(plain.get()).isEqualTo(java.util.Optional.empty());

            AtomicReference<Object> wrapped = new AtomicReference<>();
            pool.submit(Step.wrap(() -> wrapped.set(Step.currentKey()))).get(10, TimeUnit.SECONDS);
            assertThat(wrapped.get()).isEqualTo(java.util.Optional.of("step-a"));

            Callable<String> callable = Step.wrap(() -> Step.currentKey().orElseThrow());
            assertThat(pool.submit(callable).get(10, TimeUnit.SECONDS)).isEqualTo("step-a");

            AtomicReference<Object> viaExecutor = new AtomicReference<>();
            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
            Step.propagating(pool).execute(() -> {
                viaExecutor.set(Step.currentKey());
                done.countDown();
            });
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(viaExecutor.get()).isEqualTo(java.util.Optional.of("step-a"));
        } finally {
            pool.shutdownNow();
        }
        // The worker thread does not keep the step after the task.
        assertThat(Step.currentKey()).isEmpty();
    }

    @Test
    void aTaskWrappedWithNoStepRunsWithNoStepEvenOnAThreadThatHasOne() throws Exception {
        Runnable runnable;
        Callable<java.util.Optional<String>> callable;
        AtomicReference<java.util.Optional<String>> seen = new AtomicReference<>();
        assertThat(Step.currentKey()).isEmpty();
        runnable = Step.wrap(() -> seen.set(Step.currentKey()));
        callable = Step.wrap(Step::currentKey);

        try (Step executing = Step.begin("the-executing-thread's-step")) {
            runnable.run();
            assertThat(seen.get()).isEmpty();
            assertThat(callable.call()).isEmpty();
            // The executing thread's own step is back once the task ends.
            assertThat(Step.currentKey()).contains(executing.key());
        }
        assertThat(Step.currentKey()).isEmpty();
    }

    @Test
    void aWrappedTaskRunsUnderItsCapturedStepAndRestoresTheExecutingThreadsStep() throws Exception {
        Runnable runnable;
        AtomicReference<java.util.Optional<String>> seen = new AtomicReference<>();
        try (Step ignored = Step.begin("captured")) {
            runnable = Step.wrap(() -> seen.set(Step.currentKey()));
        }
        try (Step executing = Step.begin("executing")) {
            runnable.run();
            assertThat(seen.get()).contains("captured");
            assertThat(Step.currentKey()).contains(executing.key());
        }
    }

    @Test
    void badStepKeysAreRejected() {
        assertThatThrownBy(() -> Step.begin(" ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("blank");
        assertThatThrownBy(() -> Step.begin("a\tb")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("control character");
        assertThatThrownBy(() -> Step.begin("x".repeat(513))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("513");
        assertThat(Step.currentKey()).isEmpty();
    }

    @Test
    void closingOutOfOrderIsAnError() {
        Step outer = Step.begin("outer");
        Step inner = Step.begin("inner");
        assertThatThrownBy(outer::close).isInstanceOf(IllegalStateException.class).hasMessageContaining("out of order");
        inner.close();
        outer.close();
        assertThat(Step.currentKey()).isEmpty();
    }

    @Test
    void asContextIsTheOneEntryFrameworksCarry() {
        assertThat(Step.CONTEXT_KEY).isEqualTo("io.idempotent/step");
        java.util.Map<String, Object> context = Step.asContext("refund:inv_1:approved_17");
        assertThat(context).containsExactly(java.util.Map.entry("io.idempotent/step", "refund:inv_1:approved_17"));
        context.put("tenant", "acme"); // the caller may add its own entries
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Step.asContext(" "))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
