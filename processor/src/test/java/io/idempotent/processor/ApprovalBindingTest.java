package io.idempotent.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.testing.compile.Compilation;
import io.idempotent.annotations.Approval;
import io.idempotent.policy.internal.ListedTool;
import io.idempotent.policy.internal.ReleaseGateTable;
import io.idempotent.runtime.binding.ToolBindings;
import io.idempotent.runtime.binding.ToolPolicy;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A tool that needs a person's approval carries it, with how long a grant stays valid, into its
 * generated binding's policy and the release-gate table; a tool without one carries none.
 */
class ApprovalBindingTest {

    private static Compilation compilation;
    private static ClassLoader loader;

    // Each test compiles (not @BeforeAll): the mutation profile's PIT runs against a mutant only the
    // tests it saw run the mutated code, and it does not count code run in @BeforeAll.
    @BeforeEach
    void compile() {
        compilation = Compilations.compile("good/ApprovalTools.java");
        loader = Compilations.load(compilation);
    }

    private static ToolPolicy policy(String name) throws Exception {
        ToolBindings bindings = (ToolBindings) loader.loadClass("good.ApprovalTools_IdempotentTools")
                .getDeclaredConstructor().newInstance();
        return bindings.tools().stream().map(t -> t.policy()).filter(p -> p.name().equals(name)).findFirst()
                .orElseThrow();
    }

    @Test
    void approvalToolsCompileWithoutWarnings() {
        assertThat(compilation).succeededWithoutWarnings();
    }

    @Test
    void anApprovalToolWithTheDefaultValidityNeedsAGrantValidForADay() throws Exception {
        ToolPolicy refund = policy("refund_above_limit");
        assertThat(refund.approval()).isEqualTo(Approval.REQUIRED);
        assertThat(refund.approvalRequired()).isTrue();
        assertThat(refund.approvalValidity()).isEqualTo(Duration.ofDays(1));
    }

    @Test
    void anApprovalToolWithItsOwnValidityCarriesIt() throws Exception {
        ToolPolicy deploy = policy("deploy");
        assertThat(deploy.approvalRequired()).isTrue();
        assertThat(deploy.approvalValidity()).isEqualTo(Duration.ofHours(4));
    }

    @Test
    void aToolWithoutApprovalNeedsNone() throws Exception {
        ToolPolicy refund = policy("refund_within_limit");
        assertThat(refund.approval()).isEqualTo(Approval.NONE);
        assertThat(refund.approvalRequired()).isFalse();
    }

    @Test
    void theReleaseGateTableShowsEachToolsApproval() throws Exception {
        String json = compilation.generatedFile(StandardLocation.CLASS_OUTPUT, "META-INF/idempotent/tools.json")
                .orElseThrow().getCharContent(true).toString();
        Map<String, String> approvalByTool = new HashMap<>();
        for (JsonNode tool : new ObjectMapper().readTree(json).path("tools")) {
            approvalByTool.put(tool.path("name").asText(), tool.path("approval").asText(null));
        }
        assertThat(approvalByTool).containsExactlyInAnyOrderEntriesOf(Map.of(
                "refund_above_limit", "required, valid P1D",
                "deploy", "required, valid PT4H",
                "refund_within_limit", "none"));
        // The readers of the table (the agent, the runtime's name check) still find every tool.
        assertThat(ReleaseGateTable.tools(json)).extracting(ListedTool::name)
                .containsExactly("refund_above_limit", "deploy", "refund_within_limit");
    }
}
