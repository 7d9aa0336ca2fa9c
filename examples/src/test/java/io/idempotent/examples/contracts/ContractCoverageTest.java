package io.idempotent.examples.contracts;

import io.idempotent.test.ContractCoverage;
import org.junit.jupiter.api.Test;

/** No example tool ships without its four failure tests. */
class ContractCoverageTest {

    @Test
    void everyExampleToolHasAContractTest() {
        // The tools of TransactionalCrashIT are its fixtures in forked JVMs, not example tools.
        ContractCoverage.assertEveryToolHasAContract(java.util.Set.of("crash_ledger_entry", "crash_ledger_entry_plain"),
                "io.idempotent.examples.contracts");
    }
}
