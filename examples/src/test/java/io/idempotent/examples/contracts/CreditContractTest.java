package io.idempotent.examples.contracts;

import io.idempotent.examples.providers.Ledger;
import io.idempotent.examples.tools.CreditTools;
import io.idempotent.test.Downstream;
import io.idempotent.test.KitDatabase;
import io.idempotent.test.ToolContract;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The credit tool's four failure tests, with faults on the ledger's side (refused, timed out,
 * committed with the reply lost, the worker dead after the ledger committed and before the
 * record did) and on the store's (under the completion that also writes the outbox row): the
 * ledger keeps one line per operation key, so an uncertain credit is booked again under the same
 * key and credits once.
 */
class CreditContractTest {

    @RegisterExtension
    static final ToolContract<CreditTools> CONTRACT = ToolContract.forTool(CreditTools.class, "bookCredit")
            // One database: the outbox rows' part of the completion under store faults runs on both in the
            // runtime's OutboxTest; the kit here checks the tool's own contract.
            .databases(KitDatabase.POSTGRESQL)
            .step("credit:invoice_842:goodwill_3")
            .arguments("invoice_842", 500L)
            .changedArguments("invoice_842", 9999L)
            .onDownstream("the example ledger", faults -> {
                CaseProviders providers = new CaseProviders();
                Ledger ledger = new Ledger(providers.providers().database(), providers.providers().faults()) {
                    @Override
                    public long bookCredit(String operationKey, String invoiceId, long amountCents) {
                        return faults.around("ledger", () -> super.bookCredit(operationKey, invoiceId, amountCents));
                    }
                };
                return Downstream.of(new CreditTools(ledger), () -> providers.requests("ledger"),
                        () -> providers.effects("ledger")).onClose(providers);
            });

    @TestFactory
    Stream<DynamicNode> bookCredit() {
        return CONTRACT.tests();
    }
}
