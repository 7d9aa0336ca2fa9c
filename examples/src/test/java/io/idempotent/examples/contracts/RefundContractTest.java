package io.idempotent.examples.contracts;

import io.idempotent.examples.providers.PaymentProvider;
import io.idempotent.examples.tools.RefundTools;
import io.idempotent.test.Downstream;
import io.idempotent.test.ToolContract;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The refund tool's four failure tests: its payment provider deduplicates the idempotency key, so
 * an uncertain refund is re-sent under the same key and refunds once.
 */
class RefundContractTest {

    @RegisterExtension
    static final ToolContract<RefundTools> CONTRACT = ToolContract.forTool(RefundTools.class, "issueRefund")
            .step("refund:invoice_842:approved_17")
            .arguments("invoice_842", 1250L, "trace-1")
            .changedArguments("invoice_842", 9999L, "trace-1")
            .onDownstream("the example payment provider", faults -> {
                CaseProviders providers = new CaseProviders();
                PaymentProvider payments = new PaymentProvider(providers.providers().database(),
                        providers.providers().faults()) {
                    @Override
                    public String refund(String idempotencyKey, String invoiceId, long amountCents) {
                        return faults.around("psp", () -> super.refund(idempotencyKey, invoiceId, amountCents));
                    }
                };
                return Downstream.of(new RefundTools(payments), () -> providers.requests("psp"),
                        () -> providers.effects("psp")).onClose(providers);
            });

    @TestFactory
    Stream<DynamicNode> issueRefund() {
        return CONTRACT.tests();
    }
}
