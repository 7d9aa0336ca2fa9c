package io.idempotent.kotlin;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.Step;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import kotlin.coroutines.CoroutineContext;
import kotlin.coroutines.EmptyCoroutineContext;
import kotlinx.coroutines.BuildersKt;
import kotlinx.coroutines.Dispatchers;
import kotlinx.coroutines.ExecutorsKt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Real kotlinx.coroutines dispatchers, driven from Java: where the step is seen, and where it is gone. */
class StepContextTest {

    private final ExecutorService single = Executors.newSingleThreadExecutor(r -> new Thread(r, "one-worker"));

    @AfterEach
    void stop() throws InterruptedException {
        single.shutdownNow();
        assertThat(single.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    /** {@return the thread and the step key that the coroutine's code sees, run under {@code context}} */
    private static String[] seenIn(CoroutineContext context) throws InterruptedException {
        return BuildersKt.runBlocking(context, (scope, continuation) ->
                new String[] {Thread.currentThread().getName(), Step.currentKey().orElse("none")});
    }

    @Test
    void aCoroutineOnAnotherDispatchersThreadSeesTheStep() throws InterruptedException {
        String[] seen = seenIn(Dispatchers.getIO().plus(new StepContext("kotlin:approve-1")));

        assertThat(seen[0]).isNotEqualTo(Thread.currentThread().getName());
        assertThat(seen[1]).isEqualTo("kotlin:approve-1");
        assertThat(Step.currentKey()).isEmpty();
    }

    @Test
    void withoutTheElementAnOuterStepDoesNotReachTheDispatchersThread() throws InterruptedException {
        try (Step step = Step.begin("kotlin:approve-2")) {
            assertThat(seenIn(Dispatchers.getIO())[1]).isEqualTo("none");
            assertThat(seenIn(Dispatchers.getIO().plus(StepContext.current()))[1]).isEqualTo("kotlin:approve-2");
        }
    }

    @Test
    void theStepIsClosedOnThePooledThreadWhenTheCoroutineEnds() throws Exception {
        CoroutineContext oneThread = ExecutorsKt.from(single).plus(new StepContext("kotlin:approve-3"));

        String[] seen = seenIn(oneThread);
        assertThat(seen[0]).startsWith("one-worker"); // kotlinx's debug mode (tests run with -ea) adds " @coroutine#n"
        assertThat(seen[1]).isEqualTo("kotlin:approve-3");
        Optional<String> left = single.submit(Step::currentKey).get(10, TimeUnit.SECONDS);
        assertThat(left).isEmpty();
    }

    @Test
    void currentIsEmptyWithoutAStep() {
        assertThat(StepContext.current()).isSameAs(EmptyCoroutineContext.INSTANCE);
        try (Step step = Step.begin("kotlin:approve-4")) {
            assertThat(StepContext.current().get(StepContext.KEY).stepKey()).isEqualTo("kotlin:approve-4");
        }
    }
}
