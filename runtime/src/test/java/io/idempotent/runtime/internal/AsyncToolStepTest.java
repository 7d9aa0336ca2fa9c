package io.idempotent.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.idempotent.annotations.Retry;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.MissingOperationKeyException;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.binding.KeyParts;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

/**
 * Where an asynchronous tool's {@code {step}} comes from, as the agent calls it: the tool's
 * context parameter first, then (a {@code Mono} only, at subscription) the subscriber's Reactor
 * {@code Context}, then the thread's {@link Step}. Two different steps refuse the call with the
 * synchronous tools' exception and message, before anything is claimed.
 */
class AsyncToolStepTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String REFUSED = "; the call is refused rather than guess which decision it belongs to";

    /** What the processor generates for {@code refund(String id, ToolContext toolContext)} with key "k:{step}". */
    private static final ToolBinding REFUND = new ToolBinding() {
        private final ToolPolicy policy = Policies.downstreamKey("refund", Retry.SAFE).keyTemplate("k:{step}")
                .build();

        @Override
        public ToolPolicy policy() {
            return policy;
        }

        @Override
        public String methodDescriptor() {
            return "refund(Ljava/lang/String;Ljava/util/Map;)Ljava/util/concurrent/CompletableFuture;";
        }

        @Override
        @SuppressWarnings("unchecked")
        public String key(Object[] args) {
            return "k:" + KeyParts.step("refund", "toolContext",
                    KeyParts.entry((Map<String, ?>) args[1], Step.CONTEXT_KEY));
        }

        @Override
        public Map<String, Object> payload(Object[] args) {
            return Map.of("id", args[0]);
        }

        @Override
        public Type resultType() {
            return String.class;
        }
    };

    private static Map<String, Object> toolContext(String step) {
        Map<String, Object> context = new HashMap<>();
        if (step != null) {
            context.put(Step.CONTEXT_KEY, step);
        }
        return context;
    }

    /** The tool returning a CompletableFuture: its key is rendered when it is called. */
    private static CompletableFuture<String> stage(IdempotentRuntime runtime, String contextStep) {
        Object[] args = {"1", toolContext(contextStep)};
        return RuntimeAccess.engine(runtime).async().call(REFUND, args, String.class,
                () -> CompletableFuture.completedFuture("refunded"));
    }

    /** The tool returning a Mono: its key is rendered at each subscription. */
    private static Mono<String> mono(IdempotentRuntime runtime, String contextStep) {
        Object[] args = {"1", toolContext(contextStep)};
        return MonoToolCalls.call(RuntimeAccess.engine(runtime).async(), REFUND.policy(), () -> REFUND.key(args),
                REFUND.payload(args), String.class, null, () -> Mono.just("refunded"));
    }

    /** What a synchronous tool with the same context parameter says when it meets two steps. */
    private static String synchronousRefusal(String contextStep, String threadStep) {
        try (Step ignored = Step.begin(threadStep)) {
            Throwable refused = catchThrowable(() -> REFUND.key(new Object[] {"1", toolContext(contextStep)}));
            assertThat(refused).isInstanceOf(MissingOperationKeyException.class);
            return refused.getMessage();
        }
    }

    @OnBothDatabases
    void aStageToolTakesItsStepFromTheContextParameterElseFromTheThreadWhenCalled(TestDatabase db) throws Exception {
        IdempotentRuntime runtime = db.runtime();
        assertThat(stage(runtime, "from-parameter").get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("refunded");
        CompletableFuture<String> fromThread;
        try (Step ignored = Step.begin("from-thread")) {
            fromThread = stage(runtime, null);
        }
        assertThat(fromThread.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("refunded");
        CompletableFuture<String> agreeing;
        try (Step ignored = Step.begin("agreeing")) {
            agreeing = stage(runtime, "agreeing");
        }
        assertThat(agreeing.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("refunded");

        assertThat(db.status("k:from-parameter")).isEqualTo("completed");
        assertThat(db.status("k:from-thread")).isEqualTo("completed");
        assertThat(db.status("k:agreeing")).isEqualTo("completed");
    }

    @OnBothDatabases
    void aStageToolWhoseContextParameterAndThreadDisagreeIsRefusedAtTheCallAsASynchronousToolIs(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        Throwable refused;
        try (Step ignored = Step.begin("thread-step")) {
            refused = catchThrowable(() -> stage(runtime, "parameter-step"));
        }
        assertThat(refused).isInstanceOf(MissingOperationKeyException.class)
                .hasMessage(synchronousRefusal("parameter-step", "thread-step"))
                .hasMessageContaining("the context parameter toolContext carries step \"parameter-step\" but the"
                        + " thread's Step is \"thread-step\"" + REFUSED);
        assertThat(db.operationRows()).as("records").isZero();
    }

    @OnBothDatabases
    void aMonoToolTakesItsStepFromTheContextParameterThenReactorsContextThenTheThreadAtSubscription(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        assertThat(mono(runtime, "p1").block(WAIT)).isEqualTo("refunded");
        assertThat(mono(runtime, null).contextWrite(Context.of(Step.CONTEXT_KEY, "r1")).block(WAIT))
                .isEqualTo("refunded");
        Mono<String> subscribedLater = mono(runtime, null);
        try (Step ignored = Step.begin("t1")) {
            assertThat(subscribedLater.block(WAIT)).isEqualTo("refunded");
        }
        try (Step ignored = Step.begin("all")) {
            assertThat(mono(runtime, "all").contextWrite(Context.of(Step.CONTEXT_KEY, "all")).block(WAIT))
                    .isEqualTo("refunded");
        }

        assertThat(db.status("k:p1")).isEqualTo("completed");
        assertThat(db.status("k:r1")).isEqualTo("completed");
        assertThat(db.status("k:t1")).as("the thread's step at subscription").isEqualTo("completed");
        assertThat(db.status("k:all")).isEqualTo("completed");
        assertThat(db.operationRows()).as("records").isEqualTo(4);
    }

    @OnBothDatabases
    void aMonoToolRefusesAnyTwoDifferentStepsNamingBothSources(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();

        Throwable parameterAndContext = catchThrowable(() -> mono(runtime, "p")
                .contextWrite(Context.of(Step.CONTEXT_KEY, "r")).block(WAIT));
        Throwable parameterAndThread;
        Throwable contextAndThread;
        Throwable allThree;
        try (Step ignored = Step.begin("t")) {
            parameterAndThread = catchThrowable(() -> mono(runtime, "p").block(WAIT));
            contextAndThread = catchThrowable(() -> mono(runtime, null)
                    .contextWrite(Context.of(Step.CONTEXT_KEY, "r")).block(WAIT));
            allThree = catchThrowable(() -> mono(runtime, "p").contextWrite(Context.of(Step.CONTEXT_KEY, "p"))
                    .block(WAIT));
        }

        assertThat(parameterAndContext).isInstanceOf(MissingOperationKeyException.class).hasMessageContaining(
                "the context parameter toolContext carries step \"p\" but Reactor's Context carries step \"r\""
                        + REFUSED);
        assertThat(parameterAndThread).isInstanceOf(MissingOperationKeyException.class)
                .hasMessage(synchronousRefusal("p", "t"));
        assertThat(contextAndThread).isInstanceOf(MissingOperationKeyException.class).hasMessageContaining(
                "Reactor's Context carries step \"r\" but the thread's Step is \"t\"" + REFUSED);
        assertThat(allThree).isInstanceOf(MissingOperationKeyException.class).hasMessageContaining(
                "the context parameter toolContext carries step \"p\" but the thread's Step is \"t\"" + REFUSED);
        assertThat(db.operationRows()).as("records").isZero();
    }

    @OnBothDatabases
    void aReactorContextStepThatIsNotTextIsRefusedAsAContextParameterEntryIs(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        Throwable refused = catchThrowable(() -> mono(runtime, null).contextWrite(Context.of(Step.CONTEXT_KEY, 42))
                .block(WAIT));
        assertThat(refused).isInstanceOf(MissingOperationKeyException.class).hasMessageContaining(
                "the entry " + Step.CONTEXT_KEY + " of Reactor's Context is a java.lang.Integer, not a string step key");
        assertThat(db.operationRows()).as("records").isZero();
    }
}
