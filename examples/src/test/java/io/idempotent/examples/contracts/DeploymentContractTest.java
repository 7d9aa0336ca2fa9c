package io.idempotent.examples.contracts;

import io.idempotent.examples.providers.DeploymentApi;
import io.idempotent.examples.tools.DeploymentTools;
import io.idempotent.test.Downstream;
import io.idempotent.test.ToolContract;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The deployment's four failure tests: setting a target version converges, and the reconciler
 * reads the target, so an uncertain deployment is settled by what the API already targets.
 */
class DeploymentContractTest {

    @RegisterExtension
    static final ToolContract<DeploymentTools> CONTRACT = ToolContract.forTool(DeploymentTools.class,
            "setTargetVersion")
            .step("release:2026-12-03")
            .arguments("checkout", "v42")
            .changedArguments("checkout", "v43")
            .onDownstream("the example deployment API", faults -> {
                CaseProviders providers = new CaseProviders();
                DeploymentApi api = new DeploymentApi(providers.providers().database(), providers.providers().faults()) {
                    @Override
                    public boolean setTarget(String service, String version) {
                        return faults.around("deploy", () -> super.setTarget(service, version));
                    }
                };
                return Downstream.of(new DeploymentTools(api), () -> providers.requests("deploy"),
                        () -> providers.effects("deploy")).onClose(providers);
            });

    @TestFactory
    Stream<DynamicNode> setTargetVersion() {
        return CONTRACT.tests();
    }
}
