package io.idempotent.examples.tools;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.examples.providers.DeploymentApi;

/**
 * Answer 3: a convergent effect. "Set the target version to v42" rather than "deploy again": a
 * repeat converges to the same state, and {@link DeploymentReconciler} can read that state.
 */
public class DeploymentTools {

    private final DeploymentApi deployments;

    /** Tools on {@code deployments}. */
    public DeploymentTools(DeploymentApi deployments) {
        this.deployments = deployments;
    }

    /** Sets the version a service should run. */
    @IdempotentTool(key = "deploy:{service}:{step}", downstreamKey = false, reconciler = DeploymentReconciler.class,
            retry = Retry.UNCERTAIN, name = "set_target_version")
    public Deployment setTargetVersion(String service, String version) {
        deployments.setTarget(service, version);
        return new Deployment(service, version);
    }
}
