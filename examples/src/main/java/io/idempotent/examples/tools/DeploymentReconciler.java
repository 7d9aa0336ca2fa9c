package io.idempotent.examples.tools;

import io.idempotent.examples.providers.Providers;
import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.Reconciler;
import io.idempotent.runtime.Reconciliation;

/** Reads the deployment API: the operation is applied when the service already targets the version. */
public class DeploymentReconciler implements Reconciler<Deployment> {

    /** Created by the runtime. */
    public DeploymentReconciler() {
    }

    @Override
    public Reconciliation<Deployment> reconcile(OperationRecord operation) {
        String service = operation.payload().get("service").asText();
        String version = operation.payload().get("version").asText();
        return Providers.current().deployments().target(service).filter(version::equals)
                .map(v -> Reconciliation.applied(new Deployment(service, v)))
                .orElseGet(() -> Reconciliation.notApplied(service + " does not target " + version));
    }
}
