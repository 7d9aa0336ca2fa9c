package io.idempotent.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.test.tools.WrongTools;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Tools whose policy claims more than their downstream gives: the kit fails exactly the cases
 * that expose the false claim, with a message that names it.
 */
class WrongToolsTest {

    private static ToolContract<WrongTools> contract(String method) {
        return ToolContract.forTool(WrongTools.class, method)
                .arguments("u_17", "Welcome!")
                .changedArguments("u_17", "Welcome, again!")
                .databases(KitDatabase.H2)
                .onProviderDouble(ProviderDouble.Mode.NOT_DEDUPLICATING, WrongTools::new);
    }

    private static List<CaseResult> failed(List<CaseResult> results) {
        return results.stream().filter(r -> !r.passed()).collect(Collectors.toList());
    }

    @Test
    void aDownstreamKeyClaimAgainstAProviderThatDoesNotDeduplicateFailsWithTheClaimNamedFalse() {
        ToolContract<WrongTools> contract = contract("falseClaim");
        List<CaseResult> results = contract.runAll();

        // Every case whose downstream committed before the failure re-sends and doubles the effect.
        assertThat(failed(results)).extracting(CaseResult::fault).containsExactlyInAnyOrder(
                Fault.REPLY_LOST_TIMEOUT, Fault.REPLY_LOST_TIMEOUT, Fault.CONNECTION_RESET_AFTER_COMMIT,
                Fault.WORKER_DIES_AFTER_COMMIT, Fault.STORE_DOWN_UNDER_COMPLETION);
        CaseResult lostReply = failed(results).stream()
                .filter(r -> r.test() == FailureTest.FAILURE_AT_THE_EXTERNAL_CALL && r.fault() == Fault.REPLY_LOST_TIMEOUT)
                .findFirst().orElseThrow();
        assertThat(lostReply.effects()).isEqualTo(2);
        assertThat(lostReply.failureMessage())
                .contains("tool kit_false_claim claims downstreamKey = true, but provider double (NOT_DEDUPLICATING)"
                        + " did not deduplicate the operation key")
                .contains("re-send under the same key claim:u_17 produced a second effect (requests 2, effects 2)")
                .contains("The claim is false");
        assertThat(contract.report()).contains("FAILED: tool kit_false_claim claims downstreamKey = true");
        // The cases a non-deduplicating downstream cannot tell apart pass: the kit does not cry wolf.
        assertThat(results.stream().filter(r -> r.test() == FailureTest.DUPLICATE_AFTER_COMPLETION))
                .allMatch(CaseResult::passed);
    }

    @Test
    void throughJUnitTheCaseThatExposesTheFalseClaimFailsWithItsMessageAndAnHonestCasePasses() throws Throwable {
        ToolContract<WrongTools> contract = contract("falseClaim");
        contract.beforeAll(null); // what JUnit does for a @RegisterExtension field
        List<DynamicTest> tests = contract.tests()
                .flatMap(node -> ((DynamicContainer) node).getChildren()).map(DynamicTest.class::cast)
                .collect(Collectors.toList());

        assertThat(tests).hasSize(13);
        assertThatThrownBy(() -> test(tests, "4 failure at the external call / committed, reply timed out").execute())
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("contract of tool kit_false_claim, test \"4 failure at the external call\","
                        + " fault \"committed, reply timed out\" on H2:")
                .hasMessageContaining("The claim is false");
        test(tests, "1 duplicate after completion / none").execute();
    }

    private static Executable test(List<DynamicTest> tests, String name) {
        return tests.stream().filter(t -> t.getDisplayName().equals(name)).findFirst().orElseThrow().getExecutable();
    }

    @Test
    void aFalseDownstreamKeyClaimOnAToolThatNeedsApprovalFailsTheSameCasesAsWithoutApproval() {
        List<CaseResult> withoutApproval = contract("falseClaim").runAll();
        ToolContract<WrongTools> contract = contract("falseClaimApproved");
        List<CaseResult> results = contract.runAll();

        // The approval decides whether the call runs, not whether its retry is safe: the same cases fail.
        assertThat(failed(results)).extracting(r -> r.test() + " / " + r.fault()).isNotEmpty()
                .containsExactlyInAnyOrderElementsOf(failed(withoutApproval).stream()
                        .map(r -> r.test() + " / " + r.fault()).toList());
        CaseResult lostReply = failed(results).stream()
                .filter(r -> r.test() == FailureTest.FAILURE_AT_THE_EXTERNAL_CALL && r.fault() == Fault.REPLY_LOST_TIMEOUT)
                .findFirst().orElseThrow();
        assertThat(lostReply.effects()).isEqualTo(2);
        assertThat(lostReply.expected()).startsWith("once approved: ");
        assertThat(lostReply.failureMessage())
                .contains("tool kit_false_claim_approved claims downstreamKey = true, but provider double"
                        + " (NOT_DEDUPLICATING) did not deduplicate the operation key")
                .contains("re-send under the same key claim_approved:u_17 produced a second effect (requests 2,"
                        + " effects 2)");
        // The gate itself holds on this tool: its own cases pass.
        assertThat(results).filteredOn(r -> r.test().approvalOnly()).hasSize(3).allMatch(CaseResult::passed);
    }

    @Test
    void aReconcilerThatAnswersNotAppliedAfterAnEffectFailsWithTheReconcilerNamed() {
        List<CaseResult> results = contract("lyingReconciler").runAll();

        CaseResult lostReply = failed(results).stream()
                .filter(r -> r.test() == FailureTest.FAILURE_AT_THE_EXTERNAL_CALL && r.fault() == Fault.REPLY_LOST_TIMEOUT)
                .findFirst().orElseThrow();
        assertThat(lostReply.effects()).isEqualTo(2);
        assertThat(lostReply.failureMessage())
                .contains("reconciler io.idempotent.test.tools.AlwaysNotApplied of tool kit_lying_reconciler answered"
                        + " NOT_APPLIED for lie:u_17 although the downstream had applied the effect")
                .contains("the retry ran the body again and produced a second effect (effects 2)");
        assertThat(failed(results)).extracting(CaseResult::fault).contains(Fault.CONNECTION_RESET_AFTER_COMMIT,
                Fault.WORKER_DIES_AFTER_COMMIT, Fault.STORE_DOWN_UNDER_COMPLETION);
        // Before the send, NOT_APPLIED is the truth: those cases pass.
        assertThat(results.stream().filter(r -> r.fault() == Fault.CONNECTION_REFUSED)).allMatch(CaseResult::passed);
    }

    @Test
    void aToolWhoseDownstreamCallBypassesTheInjectionPointsFailsSayingTheFaultNeverStruck() {
        List<CaseResult> results = contract("bypass").runAll();

        CaseResult refused = results.stream().filter(r -> r.fault() == Fault.CONNECTION_REFUSED).findFirst()
                .orElseThrow();
        assertThat(refused.failureMessage()).contains("the injected fault \"connection refused before send\" never"
                + " struck: tool kit_bypass did not call its downstream through the case's Faults");
    }

    @Test
    void aToolThatTurnsALostReplyIntoANormalAnswerFails() {
        List<CaseResult> results = contract("swallow").runAll();

        CaseResult lostReply = results.stream().filter(r -> r.test() == FailureTest.FAILURE_AT_THE_EXTERNAL_CALL
                && r.fault() == Fault.REPLY_LOST_TIMEOUT).findFirst().orElseThrow();
        assertThat(lostReply.failureMessage()).contains("tool kit_swallow returned normally although its call failed");
    }

    @Test
    void aNotAppliedOnExceptionThrownAfterTheDownstreamCommittedFailsAsAFalseProofOfNoEffect() {
        List<CaseResult> results = contract("broadNotAppliedOn").runAll();

        CaseResult lostReply = results.stream().filter(r -> r.test() == FailureTest.FAILURE_AT_THE_EXTERNAL_CALL
                && r.fault() == Fault.REPLY_LOST_TIMEOUT).findFirst().orElseThrow();
        assertThat(lostReply.effects()).isEqualTo(2);
        assertThat(lostReply.failureMessage())
                .contains("tool kit_broad_not_applied recorded the failure of broad:u_17 as safe (failed_safe)"
                        + " although the downstream had committed")
                .contains("notAppliedOn lists io.idempotent.test.tools.WrongTools$MailUnavailable, but that exception"
                        + " does not prove that nothing happened");
        // Before the send the exception tells the truth, and the safe retry sends once.
        assertThat(results.stream().filter(r -> r.fault() == Fault.CONNECTION_REFUSED)).allMatch(CaseResult::passed);
    }

    @Test
    void changedArgumentsThatRenderAnotherKeyAreRefusedBeforeAnythingRuns() {
        ToolContract<WrongTools> contract = contract("falseClaim").changedArguments("u_18", "Welcome!");

        assertThatThrownBy(contract::runAll).isInstanceOf(IllegalStateException.class)
                .hasMessage("the contract of kit_false_claim: changedArguments(...) must render the same operation key"
                        + " (claim:u_17), but render claim:u_18");
    }

    @Test
    void aContractThatIsNotRegisteredAsAnExtensionSaysHowToRegisterIt() {
        assertThatThrownBy(() -> contract("falseClaim").tests()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("@RegisterExtension static final ToolContract");
    }
}
