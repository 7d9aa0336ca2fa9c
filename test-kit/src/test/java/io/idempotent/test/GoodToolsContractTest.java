package io.idempotent.test;

import io.idempotent.test.tools.GoodTools;
import io.idempotent.test.tools.PaymentClient;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The kit used as a user uses it, on tools that keep their contract: every case passes. The refund
 * runs on both databases; the others on H2 only, to keep the kit's own build short (the examples
 * run all three of theirs on both).
 */
class GoodToolsContractTest {

    private static final PaymentClient NO_PAYMENTS = (invoice, cents, key) -> {
        throw new AssertionError("this tool does not refund");
    };

    @RegisterExtension
    static final ToolContract<GoodTools> REFUND = ToolContract.forTool(GoodTools.class, "refund")
            .arguments("invoice_842", 1250L)
            .changedArguments("invoice_842", 9999L)
            .onProviderDouble(ProviderDouble.Mode.DEDUPLICATING, provider -> new GoodTools(
                    (invoice, cents, key) -> provider.request(key, () -> "re_" + invoice + "_" + cents), provider));

    @RegisterExtension
    static final ToolContract<GoodTools> WELCOME = ToolContract.forTool(GoodTools.class, "welcome")
            .arguments("u_17", "Welcome!")
            .changedArguments("u_17", "Welcome, again!")
            .databases(KitDatabase.H2)
            .onProviderDouble(ProviderDouble.Mode.NOT_DEDUPLICATING, mail -> new GoodTools(NO_PAYMENTS, mail));

    @RegisterExtension
    static final ToolContract<GoodTools> NOTIFY = ToolContract.forTool(GoodTools.class, "notify")
            .arguments("u_17", "Your code is 1234")
            .changedArguments("u_17", "Your code is 9876")
            .databases(KitDatabase.H2)
            .onProviderDouble(ProviderDouble.Mode.NOT_DEDUPLICATING, mail -> new GoodTools(NO_PAYMENTS, mail));

    @TestFactory
    Stream<DynamicNode> refundOnADeduplicatingProvider() {
        return REFUND.tests();
    }

    @TestFactory
    Stream<DynamicNode> welcomeWithARealReconciler() {
        return WELCOME.tests();
    }

    @TestFactory
    Stream<DynamicNode> notifySettledByAPerson() {
        return NOTIFY.tests();
    }
}
