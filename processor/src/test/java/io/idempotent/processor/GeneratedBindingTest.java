package io.idempotent.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.testing.compile.Compilation;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.MissingOperationKeyException;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.agent.ReplayedCall;
import io.idempotent.runtime.agent.ToolCall;
import io.idempotent.runtime.agent.ToolDispatcher;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.binding.ToolBindings;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A correct tool class compiles clean, its outputs match the golden files, and its binding works. */
class GeneratedBindingTest {

    private static Compilation compilation;
    private static ClassLoader loader;

    // Each test compiles (not @BeforeAll): the mutation profile's PIT runs against a mutant only the
    // tests it saw run the mutated code, and it does not count code run in @BeforeAll.
    @BeforeEach
    void compile() {
        compilation = Compilations.compile("good/BillingTools.java");
        loader = Compilations.load(compilation);
    }

    @Test
    void compilesWithoutWarnings() {
        assertThat(compilation).succeededWithoutWarnings();
    }

    @Test
    void bindingMatchesTheGoldenFile() {
        assertThat(compilation).generatedSourceFile("good.BillingTools_IdempotentTools").contentsAsUtf8String()
                .isEqualTo(Compilations.resource("golden/BillingTools_IdempotentTools.java.txt"));
    }

    @Test
    void releaseGateTableMatchesTheGoldenFile() {
        assertThat(compilation).generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/idempotent/tools.json")
                .contentsAsUtf8String().isEqualTo(Compilations.resource("golden/tools.json"));
    }

    private static ToolBindings bindings() throws Exception {
        return (ToolBindings) loader.loadClass("good.BillingTools_IdempotentTools").getDeclaredConstructor()
                .newInstance();
    }

    private static ToolBinding tool(String name) throws Exception {
        return bindings().tools().stream().filter(t -> t.policy().name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void policyIsWhatTheAnnotationSaid() throws Exception {
        ToolBinding refund = tool("issue_refund");
        assertThat(refund.policy().retry()).isEqualTo(Retry.UNCERTAIN);
        assertThat(refund.policy().downstreamKey()).isTrue();
        assertThat(refund.policy().downstreamRetention()).contains(Duration.ofDays(1));
        assertThat(refund.policy().lease()).isEqualTo(Duration.ofSeconds(10));
        assertThat(refund.policy().payloadParameters()).containsExactly("invoice");
        assertThat(refund.policy().notAppliedOn()).extracting(Class::getName)
                .containsExactly("good.BillingTools$CardDeclined");
        assertThat(refund.policy().reconciler()).isPresent();
        assertThat(tool("credit").policy().store()).isEqualTo("ledger");
        assertThat(bindings().toolClass().getName()).isEqualTo("good.BillingTools");
        assertThat(bindings().tools()).hasSize(4);
    }

    @Test
    void descriptorsAreTheJvmDescriptorsOfTheMethods() throws Exception {
        Class<?> tools = loader.loadClass("good.BillingTools");
        List<String> expected = new java.util.ArrayList<>();
        for (Method m : tools.getDeclaredMethods()) {
            if (m.isAnnotationPresent(io.idempotent.annotations.IdempotentTool.class)) {
                expected.add(m.getName() + MethodType.methodType(m.getReturnType(), m.getParameterTypes())
                        .toMethodDescriptorString());
            }
        }
        assertThat(bindings().tools()).extracting(ToolBinding::methodDescriptor)
                .containsExactlyInAnyOrderElementsOf(expected);
        Method statement = tools.getDeclaredMethod("statement", String.class, java.util.Map.class);
        assertThat(tool("statement").resultType()).isEqualTo(statement.getGenericReturnType());
        assertThat(tool("notifyCustomer").resultType()).isEqualTo(void.class);
        assertThat(tool("credit").resultType()).isEqualTo(long.class);
    }

    @Test
    void bindingRunsThroughTheRuntimeOnH2() throws Throwable {
        Class<?> toolsClass = loader.loadClass("good.BillingTools");
        Object tools = toolsClass.getDeclaredConstructor().newInstance();
        Class<?> customer = loader.loadClass("good.BillingTools$Customer");
        Class<?> invoiceType = loader.loadClass("good.BillingTools$Invoice");
        Class<?> trace = loader.loadClass("good.BillingTools$TraceInfo");
        Object invoice = invoiceType.getDeclaredConstructors()[0].newInstance("inv_842",
                customer.getDeclaredConstructors()[0].newInstance("cus_7"), 1250L);
        Method issueRefund = toolsClass.getDeclaredMethod("issueRefund", invoiceType, trace);
        ToolBinding refund = tool("issue_refund");

        try (IdempotentRuntime runtime = IdempotentRuntime.builder()
                .store("default", "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "").build();
                Step ignored = Step.begin("approved_17")) {
            Object[] first = {invoice, trace.getDeclaredConstructors()[0].newInstance("trace-1")};
            Object[] retry = {invoice, trace.getDeclaredConstructors()[0].newInstance("trace-2")};
            assertThat(refund.key(first)).isEqualTo("refund:cus_7:inv_842:approved_17");

            Object r1 = runtime.call(refund, first, () -> issueRefund.invoke(tools, first));
            // A different trace is @NotPayload: the same operation, replayed.
            Object r2 = runtime.call(refund, retry, () -> issueRefund.invoke(tools, retry));

            assertThat(r2).isEqualTo(r1);
            assertThat(r1.toString()).contains("re_refund:cus_7:inv_842:approved_17");
            assertThat(toolsClass.getField("refundsIssued").getInt(tools)).isEqualTo(1);

            // The agent's path: the dispatcher finds this binding by class and descriptor.
            IdempotentRuntime previous = IdempotentRuntime.setGlobal(runtime);
            try {
                ToolCall call = ToolDispatcher.enter(toolsClass, refund.methodDescriptor(), retry);
                assertThat(call).isInstanceOf(ReplayedCall.class);
                assertThat(call.exit(null, null)).isEqualTo(r1);
            } finally {
                IdempotentRuntime.setGlobal(previous);
            }
        }
    }

    @Test
    void durationsWithBlanksAroundThemAreTheDurationsWithinInTheBindingAsInTheGate() throws Exception {
        Compilation spaced = Compilations.compile("good/SpacedDurations.java");
        assertThat(spaced).succeededWithoutWarnings();
        ToolBindings bindings = (ToolBindings) Compilations.load(spaced).loadClass("good.SpacedDurations_IdempotentTools")
                .getDeclaredConstructor().newInstance();
        io.idempotent.runtime.binding.ToolPolicy policy = bindings.tools().get(0).policy();
        assertThat(policy.lease()).isEqualTo(Duration.ofSeconds(30));
        assertThat(policy.retention()).isEqualTo(Duration.ofDays(7));
        assertThat(policy.downstreamRetention()).contains(Duration.ofDays(1));
        assertThat(policy.approvalValidity()).isEqualTo(Duration.ofHours(4));
    }

    @Test
    void missingStepOrNullKeyPartFailsBeforeAnyClaim() throws Exception {
        ToolBinding refund = tool("issue_refund");
        Class<?> invoiceType = loader.loadClass("good.BillingTools$Invoice");
        Object noCustomer = invoiceType.getDeclaredConstructors()[0].newInstance("inv_1", null, 5L);
        assertThatThrownBy(() -> refund.key(new Object[] {noCustomer, null}))
                .isInstanceOf(MissingOperationKeyException.class).hasMessageContaining("{invoice.customer} is null");
        assertThatThrownBy(() -> tool("credit").key(new Object[] {"cus_1", 5L}))
                .isInstanceOf(MissingOperationKeyException.class).hasMessageContaining("{step}");
    }
}
