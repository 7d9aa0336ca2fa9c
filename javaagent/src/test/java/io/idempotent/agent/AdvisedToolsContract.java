package io.idempotent.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.it.tools.Effects;
import io.idempotent.it.tools.ShapeTools;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.MissingOperationKeyException;
import io.idempotent.runtime.NeedsReconciliationException;
import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.StoreUnavailableException;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.internal.RuntimeAccess;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the advice must do around every shape of tool method, whichever way it was applied:
 * the body runs once per operation, a duplicate is answered from the store with the method's own
 * return type, the method's exceptions reach the caller unchanged, and a call that cannot be
 * claimed never runs the body. Subclasses supply the advised class.
 */
abstract class AdvisedToolsContract {

    private IdempotentRuntime runtime;
    private IdempotentRuntime previous;
    private Step step;

    /** {@link ShapeTools} with the advice applied. */
    abstract Class<?> advisedTools();

    @BeforeEach
    void useAFreshStore() {
        Effects.clear();
        runtime = IdempotentRuntime.builder()
                .store("default", "jdbc:h2:mem:advice-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "")
                .build();
        previous = IdempotentRuntime.setGlobal(runtime);
        step = Step.begin("session-" + UUID.randomUUID());
    }

    @AfterEach
    void restore() {
        step.close();
        if (previous == null) {
            // Back to "never configured", for the tests that read the runtime from the environment.
            RuntimeAccess.forgetGlobal();
        } else {
            IdempotentRuntime.setGlobal(previous);
        }
        runtime.close();
    }

    @Test
    void theAdviceIsReallyInTheBytecode() {
        // Without the advice, a duplicate would run the body again; this guards every test below.
        Object tools = newTools();
        call(tools, "addNote", "t-0", "first");
        call(tools, "addNote", "t-0", "first");
        assertThat(Effects.count("note:t-0")).isEqualTo(1);
        assertThat(record("addNote", "note:t-0:" + step.key()).status()).isEqualTo(OperationStatus.COMPLETED);
    }

    @Test
    void voidMethodRunsOnceAndTheDuplicateReturnsNormally() {
        Object tools = newTools();
        assertThat(call(tools, "addNote", "t-1", "hello")).isNull();
        assertThat(call(tools, "addNote", "t-1", "hello")).isNull();
        assertThat(Effects.count("note:t-1")).isEqualTo(1);
    }

    @Test
    void primitiveResultIsReplayedAsTheSameValue() {
        Object tools = newTools();
        int first = (int) call(tools, "reserve", "sku-9", 3);
        int second = (int) call(tools, "reserve", "sku-9", 3);
        assertThat(second).isEqualTo(first);
        assertThat(Effects.count("reserve:sku-9")).isEqualTo(1);
    }

    @Test
    void staticMethodWithAGenericResultIsReplayedAsItsElementType() {
        List<?> first = (List<?>) call(null, "pick", "o-7", 2);
        List<?> second = (List<?>) call(null, "pick", "o-7", 2);
        assertThat(second).isEqualTo(first).hasSize(2);
        assertThat(second.get(0)).isInstanceOf(ShapeTools.Item.class);
        assertThat(Effects.count("pick:o-7")).isEqualTo(1);
    }

    @Test
    void nestedGenericResultIsReplayedWithItsOptionals() {
        Object tools = newTools();
        Map<?, ?> first = (Map<?, ?>) call(tools, "stock", "w-1", List.of("sku-1"));
        Map<?, ?> second = (Map<?, ?>) call(tools, "stock", "w-1", List.of("sku-1"));
        assertThat(second).isEqualTo(first);
        assertThat(second.get("sku-1")).isInstanceOf(Optional.class);
        assertThat(second.get("missing")).isEqualTo(Optional.empty());
        assertThat(Effects.count("stock:w-1")).isEqualTo(1);
    }

    @Test
    void checkedExceptionBeforeTheEffectIsRethrownUnchangedAndTheRetryRuns() {
        Object tools = newTools();
        Effects.declineNextCharge("c-1");
        assertThatThrownBy(() -> invoke(tools, "charge", "c-1", 500L))
                .isExactlyInstanceOf(ShapeTools.CardDeclined.class).hasMessage("card declined for c-1");
        assertThat(record("charge", "charge:c-1:" + step.key()).status()).isEqualTo(OperationStatus.FAILED_SAFE);
        assertThat(Effects.total()).isZero();

        long charged = (long) call(tools, "charge", "c-1", 500L);
        assertThat(charged).isEqualTo(501);
        assertThat(call(tools, "charge", "c-1", 500L)).isEqualTo(charged);
        assertThat(Effects.count("charge:c-1")).isEqualTo(1);
    }

    @Test
    void checkedExceptionAfterTheEffectIsRethrownAndTheRepeatNeedsReconciliation() {
        Object tools = newTools();
        assertThatThrownBy(() -> invoke(tools, "charge", "c-2", 0L))
                .isExactlyInstanceOf(ShapeTools.ProviderTimeout.class);
        assertThatThrownBy(() -> invoke(tools, "charge", "c-2", 0L))
                .isInstanceOf(NeedsReconciliationException.class).hasMessageContaining("charge:c-2");
        assertThat(Effects.count("charge:c-2")).isEqualTo(1);
    }

    @Test
    void aKeyThatCannotBeBuiltNeverRunsTheBody() {
        Object tools = newTools();
        step.close();
        assertThatThrownBy(() -> invoke(tools, "addNote", "t-2", "no step"))
                .isInstanceOf(MissingOperationKeyException.class).hasMessageContaining("{step}");
        assertThat(Effects.total()).isZero();
        step = Step.begin("session-" + UUID.randomUUID());
    }

    @Test
    void anUnreachableStoreNeverRunsTheBody() {
        // Configured the way the agent's arguments configure it: a PostgreSQL port nobody listens on.
        System.setProperty("idempotent.agent.store.url", "jdbc:postgresql://127.0.0.1:1/nothing");
        System.setProperty("idempotent.agent.store.user", "nobody");
        System.setProperty("idempotent.agent.store.connect.timeout", "PT0.5S");
        // An application that never set a global runtime: the agent's runtime comes from the environment.
        RuntimeAccess.forgetGlobal();
        try {
            assertThatThrownBy(() -> invoke(newTools(), "reserve", "sku-1", 1))
                    .isInstanceOf(StoreUnavailableException.class);
            assertThatThrownBy(() -> invoke(null, "pick", "o-1", 1)).isInstanceOf(StoreUnavailableException.class);
            assertThat(Effects.total()).isZero();
        } finally {
            System.clearProperty("idempotent.agent.store.url");
            System.clearProperty("idempotent.agent.store.user");
            System.clearProperty("idempotent.agent.store.connect.timeout");
            IdempotentRuntime fromEnvironment = IdempotentRuntime.setGlobal(runtime);
            if (fromEnvironment != null) {
                fromEnvironment.close();
            }
        }
    }

    private OperationRecord record(String tool, String key) {
        return runtime.operations().find(tool, key).orElseThrow(() -> new AssertionError("no operation " + key));
    }

    private Object newTools() {
        try {
            return advisedTools().getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** Calls a tool, failing the test on any exception. */
    private Object call(Object target, String method, Object... args) {
        try {
            return invoke(target, method, args);
        } catch (Throwable t) {
            throw new AssertionError(method + Arrays.toString(args) + " threw " + t, t);
        }
    }

    /** Calls a tool through a method handle, so its exceptions arrive unwrapped. */
    private Object invoke(Object target, String method, Object... args) throws Throwable {
        Method m = Arrays.stream(advisedTools().getDeclaredMethods()).filter(x -> x.getName().equals(method))
                .findFirst().orElseThrow();
        MethodHandle handle = MethodHandles.publicLookup().unreflect(m);
        if (!Modifier.isStatic(m.getModifiers())) {
            handle = handle.bindTo(target);
        }
        return handle.invokeWithArguments(args);
    }
}
