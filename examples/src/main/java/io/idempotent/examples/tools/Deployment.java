package io.idempotent.examples.tools;

/** The target a service converged to. */
public record Deployment(String service, String version) {
}
