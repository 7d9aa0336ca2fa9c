package io.idempotent.test;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.BindingRegistry;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The contract of one tool method: the four failure tests, each under the faults that matter,
 * on H2 and PostgreSQL, every case with a store and a downstream of its own. The expected outcome
 * of each case is derived from the tool's policy as its generated binding states it. Register it
 * as an extension and return {@link #tests()} from a {@code @TestFactory}:
 *
 * <pre>{@code
 * class RefundContractTest {
 *     @RegisterExtension
 *     static final ToolContract<RefundTools> CONTRACT = ToolContract.forTool(RefundTools.class, "issueRefund")
 *             .step("refund:invoice_842:approved_17")
 *             .arguments("invoice_842", 1250L)
 *             .changedArguments("invoice_842", 9999L)
 *             .onProviderDouble(ProviderDouble.Mode.DEDUPLICATING,
 *                     provider -> new RefundTools((invoice, cents, key) -> provider.request(key, () -> "re_" + invoice)));
 *
 *     @TestFactory
 *     Stream<DynamicNode> issueRefund() {
 *         return CONTRACT.tests();
 *     }
 * }
 * }</pre>
 *
 * <p>The kit runs the tool through {@code IdempotentRuntime.call} with the method's generated
 * binding (the same binding and engine the agent dispatches to), calling the real method of the
 * tool instance as the body; the test JVM needs no agent. A method returning
 * {@code CompletionStage<T>}, {@code CompletableFuture<T>} or Reactor's {@code Mono<T>} runs through
 * the runtime's asynchronous calls instead, as the agent runs it, and each call's answer is awaited.
 *
 * <p>A tool declared {@code approval = Approval.REQUIRED} first answers every new operation with
 * {@code ApprovalPendingException}. For such a tool each case of the four tests first makes that
 * call (checking that nothing ran), grants the request through the runtime's {@code Approvals} with
 * the payload hash the queue shows (operator {@code contract-test}), and then runs as on any tool:
 * the faults strike the approved call. Three cases of the approval gate itself are added
 * ({@link FailureTest#APPROVAL_PENDING} and the two after it).
 *
 * <p>After the test class, it prints a table per tool (requests, effects, replays and final status
 * of every case) and publishes it as a report entry.
 *
 * @param <T> the tool class
 */
public final class ToolContract<T> implements BeforeAllCallback, AfterAllCallback {

    private final Class<T> toolClass;
    private final Method method;
    private final ToolBinding binding;
    private Object[] arguments;
    private Object[] changedArguments;
    private String step;
    private Function<Faults, Downstream<T>> setup;
    private String downstreamName = "the user's downstream";
    private int concurrentCallers = 4;
    private List<KitDatabase> databases = List.of(KitDatabase.H2, KitDatabase.POSTGRESQL);
    private final List<CaseResult> results = Collections.synchronizedList(new ArrayList<>());
    private volatile boolean registered;

    private ToolContract(Class<T> toolClass, Method method, ToolBinding binding) {
        this.toolClass = toolClass;
        this.method = method;
        this.binding = binding;
    }

    /**
     * The contract of the {@code @IdempotentTool} method {@code methodName} of {@code toolClass}.
     *
     * @throws IllegalArgumentException if there is no such tool method, or several with that name
     * @throws io.idempotent.runtime.MissingBindingException if the class was compiled without the processor
     */
    public static <T> ToolContract<T> forTool(Class<T> toolClass, String methodName) {
        Objects.requireNonNull(toolClass, "toolClass");
        List<Method> found = new ArrayList<>();
        for (Method m : toolClass.getDeclaredMethods()) {
            if (m.getName().equals(methodName) && m.isAnnotationPresent(IdempotentTool.class)) {
                found.add(m);
            }
        }
        if (found.size() != 1) {
            throw new IllegalArgumentException(toolClass.getName() + " has " + found.size() + " @IdempotentTool methods"
                    + " named " + methodName + "; name exactly one");
        }
        Method m = found.get(0);
        m.setAccessible(true);
        return new ToolContract<>(toolClass, m, BindingRegistry.find(toolClass, descriptor(m)));
    }

    /** The arguments of the call under test, in declaration order. Required. */
    public ToolContract<T> arguments(Object... args) {
        this.arguments = args.clone();
        return this;
    }

    /**
     * Arguments that render the same operation key with a different payload (test 2). Required.
     */
    public ToolContract<T> changedArguments(Object... args) {
        this.changedArguments = args.clone();
        return this;
    }

    /** The workflow's step key, set around every call (for keys with {@code {step}}). */
    public ToolContract<T> step(String stepKey) {
        this.step = Objects.requireNonNull(stepKey, "stepKey");
        return this;
    }

    /**
     * Runs every case on a fresh {@link ProviderDouble} of the given mode; {@code tool} builds the
     * tool with a client that forwards to it.
     */
    public ToolContract<T> onProviderDouble(ProviderDouble.Mode mode, Function<ProviderDouble, T> tool) {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(tool, "tool");
        this.downstreamName = "provider double (" + mode + ")";
        this.setup = faults -> {
            ProviderDouble provider = faults.providerDouble(mode);
            return Downstream.of(tool.apply(provider), provider);
        };
        return this;
    }

    /**
     * Runs every case on a downstream the set-up builds (the provider's test server, the user's own
     * fake), with the case's {@link Faults} put in the tool's client.
     */
    public ToolContract<T> onDownstream(String name, Function<Faults, Downstream<T>> setup) {
        this.downstreamName = Objects.requireNonNull(name, "name");
        this.setup = Objects.requireNonNull(setup, "setup");
        return this;
    }

    /** How many callers race in test 3; 4 unless set. */
    public ToolContract<T> concurrentCallers(int callers) {
        if (callers < 2) {
            throw new IllegalArgumentException("a race needs at least 2 callers");
        }
        this.concurrentCallers = callers;
        return this;
    }

    /** The databases to run on; H2 and PostgreSQL unless set. */
    public ToolContract<T> databases(KitDatabase... kinds) {
        this.databases = List.of(kinds);
        return this;
    }

    /** The tool's name (from its binding). */
    public String toolName() {
        return binding.policy().name();
    }

    /** The tool's policy, as its generated binding states it. */
    public ToolPolicy policy() {
        return binding.policy();
    }

    /**
     * One dynamic test per case, grouped per database. Each test fails with a message naming
     * the broken guarantee and, where the policy claims too much, the claim that is false.
     *
     * @throws IllegalStateException if the contract is incomplete or not registered as an extension
     */
    public Stream<DynamicNode> tests() {
        if (!registered) {
            throw new IllegalStateException("register the contract of " + toolName() + " as a JUnit extension:"
                    + " @RegisterExtension static final ToolContract<...> CONTRACT = ToolContract.forTool(...)");
        }
        requireComplete();
        return databases.stream().map(db -> DynamicContainer.dynamicContainer(toolName() + " on " + db,
                CaseRun.cases(policy()).stream().map(c -> DynamicTest.dynamicTest(c.test().label() + " / " + c.fault().label(),
                        () -> {
                            CaseResult result = run(c, db);
                            if (!result.passed()) {
                                throw new AssertionError(result.failureMessage());
                            }
                        }))));
    }

    /** Runs every case on every database, for the kit's own tests. */
    List<CaseResult> runAll() {
        requireComplete();
        List<CaseResult> all = new ArrayList<>();
        for (KitDatabase db : databases) {
            for (CaseRun.Case c : CaseRun.cases(policy())) {
                all.add(run(c, db));
            }
        }
        return all;
    }

    /** Runs one case, for the kit's own tests. */
    CaseResult run(CaseRun.Case c, KitDatabase db) {
        CaseResult result = new CaseRun(this, c, db).run();
        results.add(result);
        return result;
    }

    /** The table of every case run so far. */
    String report() {
        return ContractReport.render(this, List.copyOf(results));
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        registered = true;
        results.clear();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (results.isEmpty()) {
            return;
        }
        String table = report();
        System.out.println(table);
        context.publishReportEntry("contract " + toolName(), table);
    }

    // ---- what the cases read

    Class<T> toolClass() {
        return toolClass;
    }

    Method method() {
        return method;
    }

    ToolBinding binding() {
        return binding;
    }

    Object[] arguments() {
        return arguments.clone();
    }

    Object[] changedArguments() {
        return changedArguments.clone();
    }

    String step() {
        return step;
    }

    Function<Faults, Downstream<T>> setup() {
        return setup;
    }

    String downstreamName() {
        return downstreamName;
    }

    int concurrentCallers() {
        return concurrentCallers;
    }

    private void requireComplete() {
        List<String> missing = new ArrayList<>();
        if (arguments == null) {
            missing.add("arguments(...)");
        }
        if (changedArguments == null) {
            missing.add("changedArguments(...)");
        }
        if (setup == null) {
            missing.add("onProviderDouble(...) or onDownstream(...)");
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("the contract of " + toolName() + " needs " + String.join(", ", missing));
        }
        int parameters = method.getParameterCount();
        if (arguments.length != parameters || changedArguments.length != parameters) {
            throw new IllegalStateException("the contract of " + toolName() + ": " + method.getName() + " takes "
                    + parameters + " arguments, arguments(...) has " + arguments.length + " and changedArguments(...) "
                    + changedArguments.length);
        }
        try (Step ignored = step == null ? null : Step.begin(step)) {
            String key = binding.key(arguments);
            String changedKey = binding.key(changedArguments);
            if (!key.equals(changedKey)) {
                throw new IllegalStateException("the contract of " + toolName() + ": changedArguments(...) must render"
                        + " the same operation key (" + key + "), but render " + changedKey);
            }
            Map<String, Object> payload = binding.payload(arguments);
            if (Arrays.deepEquals(payload.values().toArray(), binding.payload(changedArguments).values().toArray())) {
                throw new IllegalStateException("the contract of " + toolName() + ": changedArguments(...) must change"
                        + " a payload argument (" + String.join(", ", payload.keySet()) + ")");
            }
        }
        for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (argument.startsWith("-javaagent:") && argument.contains("idempotent")) {
                throw new IllegalStateException("the contract test kit runs " + toolName() + " through the runtime"
                        + " itself, with the tool's generated binding; this JVM also runs the agent (" + argument
                        + "), which would wrap the body a second time. Run the contract tests without -javaagent");
            }
        }
    }

    private static String descriptor(Method m) {
        StringBuilder d = new StringBuilder(m.getName()).append('(');
        for (Class<?> p : m.getParameterTypes()) {
            d.append(p.descriptorString());
        }
        return d.append(')').append(m.getReturnType().descriptorString()).toString();
    }
}
