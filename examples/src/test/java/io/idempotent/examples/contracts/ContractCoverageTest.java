package io.idempotent.examples.contracts;

import io.idempotent.test.ContractCoverage;
import org.junit.jupiter.api.Test;

/** No example tool ships without its four failure tests. */
class ContractCoverageTest {

    @Test
    void everyExampleToolHasAContractTest() {
        ContractCoverage.assertEveryToolHasAContract("io.idempotent.examples.contracts");
    }
}
