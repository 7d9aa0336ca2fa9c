package io.idempotent.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The coverage check reads the processor's tools.json of the kit's test tools: the tools of
 * {@link GoodToolsContractTest} have contracts; the wrong and HTTP tools have none in a static
 * field, so the check names them.
 */
class ContractCoverageTest {

    @Test
    void toolsWithoutAContractAreNamedWithWhereTheyAreDeclared() {
        assertThat(ContractCoverage.coveredTools(getClass().getClassLoader(), "io.idempotent.test"))
                .contains("kit_refund", "kit_welcome", "kit_notify").doesNotContain("kit_false_claim");

        assertThatThrownBy(() -> ContractCoverage.assertEveryToolHasAContract("io.idempotent.test"))
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("tools listed in META-INF/idempotent/tools.json without a contract test: ")
                .hasMessageContaining("kit_false_claim (io.idempotent.test.tools.WrongTools.falseClaim(")
                .hasMessageContaining("kit_http_refund (io.idempotent.test.tools.HttpRefundTools.refund(")
                .hasMessageNotContaining("kit_refund (");
    }

    @Test
    void theCheckPassesWhenEveryListedToolHasAContractOrIsExempt() {
        ContractCoverage.assertEveryToolHasAContract(Set.of("kit_false_claim", "kit_lying_reconciler", "kit_bypass",
                "kit_swallow", "kit_broad_not_applied", "kit_http_refund", "kit_okhttp_refund", "kit_false_claim_approved"),
                "io.idempotent.test");
    }
}
