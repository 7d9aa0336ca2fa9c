package io.idempotent.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.test.tools.AsyncGoodTools;
import io.idempotent.test.tools.PaymentClient;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The kit on asynchronous tools, used as a user uses it: the four tests under every fault, on a
 * tool returning a {@code CompletableFuture} and on one returning a {@code Mono}, each case
 * passing. H2 only, to keep the kit's own build short (the store's side of the asynchronous
 * path runs on both databases in the runtime's AsyncToolCallsTest and MonoToolCallsTest).
 */
class AsyncToolsContractTest {

    private static final PaymentClient NO_PAYMENTS = (invoice, cents, key) -> {
        throw new AssertionError("this tool does not refund");
    };

    @RegisterExtension
    static final ToolContract<AsyncGoodTools> REFUND_LATER = ToolContract.forTool(AsyncGoodTools.class, "refundLater")
            .arguments("invoice_842", 1250L)
            .changedArguments("invoice_842", 9999L)
            .databases(KitDatabase.H2)
            .onProviderDouble(ProviderDouble.Mode.DEDUPLICATING, provider -> new AsyncGoodTools(
                    (invoice, cents, key) -> provider.request(key, () -> "re_" + invoice + "_" + cents), provider));

    @RegisterExtension
    static final ToolContract<AsyncGoodTools> NOTIFY_MONO = ToolContract.forTool(AsyncGoodTools.class, "notifyMono")
            .arguments("u_17", "Your code is 1234")
            .changedArguments("u_17", "Your code is 9876")
            .databases(KitDatabase.H2)
            .onProviderDouble(ProviderDouble.Mode.NOT_DEDUPLICATING, mail -> new AsyncGoodTools(NO_PAYMENTS, mail));

    @TestFactory
    Stream<DynamicNode> aCompletableFutureToolOnADeduplicatingProvider() {
        return REFUND_LATER.tests();
    }

    @TestFactory
    Stream<DynamicNode> aMonoToolSettledByAPerson() {
        return NOTIFY_MONO.tests();
    }

    @Test
    void aFalseDownstreamKeyClaimOnAnAsynchronousToolFailsTheCasesThatExposeItAsOnASynchronousOne() {
        // The refund claims downstreamKey = true; this provider does not deduplicate.
        ToolContract<AsyncGoodTools> contract = ToolContract.forTool(AsyncGoodTools.class, "refundLater")
                .arguments("invoice_842", 1250L)
                .changedArguments("invoice_842", 9999L)
                .databases(KitDatabase.H2)
                .onProviderDouble(ProviderDouble.Mode.NOT_DEDUPLICATING, provider -> new AsyncGoodTools(
                        (invoice, cents, key) -> provider.request(key, () -> "re_" + invoice + "_" + cents), provider));

        List<CaseResult> failed = contract.runAll().stream().filter(r -> !r.passed()).toList();

        // The same cases as WrongToolsTest's synchronous false claim, the store's fault on the runtime's executor included.
        assertThat(failed).extracting(CaseResult::fault).containsExactlyInAnyOrder(
                Fault.REPLY_LOST_TIMEOUT, Fault.REPLY_LOST_TIMEOUT, Fault.CONNECTION_RESET_AFTER_COMMIT,
                Fault.WORKER_DIES_AFTER_COMMIT, Fault.STORE_DOWN_UNDER_COMPLETION);
        CaseResult lostReply = failed.stream().filter(r -> r.test() == FailureTest.FAILURE_AT_THE_EXTERNAL_CALL
                && r.fault() == Fault.REPLY_LOST_TIMEOUT).findFirst().orElseThrow();
        assertThat(lostReply.effects()).isEqualTo(2);
        assertThat(lostReply.failureMessage()).contains("tool kit_refund_later claims downstreamKey = true, but"
                + " provider double (NOT_DEDUPLICATING) did not deduplicate the operation key");
    }
}
