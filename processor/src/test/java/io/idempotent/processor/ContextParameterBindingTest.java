package io.idempotent.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.testing.compile.Compilation;
import io.idempotent.runtime.MissingOperationKeyException;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.binding.ToolBindings;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.UUID;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Framework context parameters (compiled against source stubs of the frameworks' types; the real
 * frameworks run in the integrations modules): never payload, listed as context, and read by
 * {@code {step}} (context first, then the thread's Step) and {@code {context.NAME}}.
 */
class ContextParameterBindingTest {

    static final String[] FRAMEWORKS = {"frameworks/ToolContext.java", "frameworks/InvocationParameters.java",
        "frameworks/InvocationContext.java", "frameworks/ToolMemoryId.java", "frameworks/McpSchema.java",
        "frameworks/McpTransportContext.java"};

    private static Compilation compilation;
    private static ClassLoader loader;

    // Each test compiles (not @BeforeAll): the mutation profile's PIT runs against a mutant only the
    // tests it saw run the mutated code, and it does not count code run in @BeforeAll.
    @BeforeEach
    void compile() {
        String[] resources = new String[FRAMEWORKS.length + 1];
        resources[0] = "good/AgentTools.java";
        System.arraycopy(FRAMEWORKS, 0, resources, 1, FRAMEWORKS.length);
        compilation = Compilations.compile(resources);
        loader = Compilations.load(compilation);
    }

    private static ToolBinding tool(String name) throws Exception {
        ToolBindings bindings = (ToolBindings) loader.loadClass("good.AgentTools_IdempotentTools")
                .getDeclaredConstructor().newInstance();
        return bindings.tools().stream().filter(t -> t.policy().name().equals(name)).findFirst().orElseThrow();
    }

    private static Object toolContext(Map<String, Object> entries) throws Exception {
        return loader.loadClass("org.springframework.ai.chat.model.ToolContext").getConstructor(Map.class)
                .newInstance(entries);
    }

    private static Object invocationContext(Map<String, Object> parameters) throws Exception {
        Class<?> type = loader.loadClass("dev.langchain4j.invocation.InvocationContext");
        Object params = loader.loadClass("dev.langchain4j.invocation.InvocationParameters").getConstructor(Map.class)
                .newInstance(parameters);
        UUID random = UUID.randomUUID();
        return Proxy.newProxyInstance(loader, new Class<?>[] {type}, (proxy, method, args) -> switch (method.getName()) {
            case "invocationParameters" -> params;
            case "invocationId" -> random;
            default -> null;
        });
    }

    @Test
    void compilesWithoutWarningsAndMatchesTheGoldenFiles() {
        assertThat(compilation).succeededWithoutWarnings();
        assertThat(compilation).generatedSourceFile("good.AgentTools_IdempotentTools").contentsAsUtf8String()
                .isEqualTo(Compilations.resource("golden/AgentTools_IdempotentTools.java.txt"));
        assertThat(compilation).generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/idempotent/tools.json")
                .contentsAsUtf8String().isEqualTo(Compilations.resource("golden/agent-tools.json"));
    }

    @Test
    void contextParametersAreNeverPayload() throws Exception {
        assertThat(tool("springRefund").policy().payloadParameters()).containsExactly("invoiceId", "amountCents");
        assertThat(tool("springRefund").payload(new Object[] {"inv_1", 500L, toolContext(Map.of("other", "a"))}))
                .containsExactly(Map.entry("invoiceId", "inv_1"), Map.entry("amountCents", 500L));
        // The InvocationContext (random invocationId) and the memory id are not payload either.
        assertThat(tool("approvedRefund").policy().payloadParameters()).containsExactly("invoiceId");
        assertThat(tool("mcpRefund").policy().payloadParameters()).isEmpty();
    }

    @Test
    void stepComesFromTheContextParameter() throws Exception {
        ToolBinding refund = tool("springRefund");
        Object[] args = {"inv_1", 500L, toolContext(Map.of(Step.CONTEXT_KEY, "approved_17", "other", "x"))};
        assertThat(refund.key(args)).isEqualTo("refund:inv_1:approved_17");
        try (Step same = Step.begin("approved_17")) {
            assertThat(refund.key(args)).isEqualTo("refund:inv_1:approved_17");
        }
    }

    @Test
    void stepFallsBackToTheThreadsStep() throws Exception {
        ToolBinding refund = tool("springRefund");
        Object[] noEntry = {"inv_1", 500L, toolContext(Map.of("other", "x"))};
        Object[] noContext = {"inv_1", 500L, null};
        try (Step step = Step.begin("approved_18")) {
            assertThat(refund.key(noEntry)).isEqualTo("refund:inv_1:approved_18");
            assertThat(refund.key(noContext)).isEqualTo("refund:inv_1:approved_18");
        }
        assertThatThrownBy(() -> refund.key(noEntry)).isInstanceOf(MissingOperationKeyException.class)
                .hasMessageContaining("the context parameter toolContext has no entry io.idempotent/step");
    }

    @Test
    void differentStepsInTheContextAndOnTheThreadFailClosed() throws Exception {
        ToolBinding refund = tool("springRefund");
        Object[] args = {"inv_1", 500L, toolContext(Map.of(Step.CONTEXT_KEY, "approved_17"))};
        try (Step other = Step.begin("approved_99")) {
            assertThatThrownBy(() -> refund.key(args)).isInstanceOf(MissingOperationKeyException.class)
                    .hasMessageContaining("carries step \"approved_17\" but the thread's Step is \"approved_99\"");
        }
    }

    @Test
    void anInvalidStepEntryIsRefused() throws Exception {
        Object[] args = {"inv_1", 500L, toolContext(Map.of(Step.CONTEXT_KEY, " "))};
        assertThatThrownBy(() -> tool("springRefund").key(args)).isInstanceOf(MissingOperationKeyException.class)
                .hasMessageContaining("is not a valid step key");
    }

    @Test
    void contextPlaceholderReadsTheNamedEntry() throws Exception {
        ToolBinding refund = tool("approvedRefund");
        assertThat(refund.key(new Object[] {"inv_1", invocationContext(Map.of("approvalId", "ap_7")), "memory-1"}))
                .isEqualTo("refund:inv_1:ap_7");
        assertThatThrownBy(() -> refund.key(new Object[] {"inv_1", invocationContext(Map.of()), "memory-1"}))
                .isInstanceOf(MissingOperationKeyException.class)
                .hasMessageContaining("{context.approvalId}: the context parameter invocation has no entry approvalId");
    }

    @Test
    void subclassesOfInvocationParametersAreContext() throws Exception {
        Object parameters = loader.loadClass("good.AgentTools$RefundParameters").getConstructor(Map.class)
                .newInstance(Map.of(Step.CONTEXT_KEY, "approved_19"));
        ToolBinding refund = tool("parametersRefund");
        assertThat(refund.key(new Object[] {"inv_1", parameters})).isEqualTo("refund:approved_19");
        assertThat(refund.policy().payloadParameters()).containsExactly("invoiceId");
    }

    @Test
    void mcpStepComesFromTheRequestsMeta() throws Exception {
        Class<?> request = loader.loadClass("io.modelcontextprotocol.spec.McpSchema$CallToolRequest");
        Object call = request.getConstructors()[0].newInstance("refund", Map.of(), Map.of(Step.CONTEXT_KEY, "s_1"));
        assertThat(tool("mcpRefund").key(new Object[] {null, call})).isEqualTo("mcp-refund:s_1");
    }
}
