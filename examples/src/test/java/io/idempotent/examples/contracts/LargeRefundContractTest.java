package io.idempotent.examples.contracts;

import io.idempotent.examples.providers.PaymentProvider;
import io.idempotent.examples.tools.LargeRefundTools;
import io.idempotent.test.Downstream;
import io.idempotent.test.ToolContract;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The large refund's four failure tests: an approval decides whether a refund may run, not how
 * often; the payment provider's deduplication of the idempotency key keeps an uncertain refund to one.
 */
class LargeRefundContractTest {

    @RegisterExtension
    static final ToolContract<LargeRefundTools> CONTRACT = ToolContract.forTool(LargeRefundTools.class,
            "issueLargeRefund")
            .step("ticket-T-1042:refund")
            .arguments("invoice_842", 120_000L, "trace-1")
            .changedArguments("invoice_842", 130_000L, "trace-1")
            .onDownstream("the example payment provider", faults -> {
                CaseProviders providers = new CaseProviders();
                PaymentProvider payments = new PaymentProvider(providers.providers().database(),
                        providers.providers().faults()) {
                    @Override
                    public String refund(String idempotencyKey, String invoiceId, long amountCents) {
                        return faults.around("psp", () -> super.refund(idempotencyKey, invoiceId, amountCents));
                    }
                };
                return Downstream.of(new LargeRefundTools(payments), () -> providers.requests("psp"),
                        () -> providers.effects("psp")).onClose(providers);
            });

    @TestFactory
    Stream<DynamicNode> issueLargeRefund() {
        return CONTRACT.tests();
    }
}
