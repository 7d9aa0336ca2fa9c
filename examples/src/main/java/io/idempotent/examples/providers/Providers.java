package io.idempotent.examples.providers;

import java.nio.file.Path;

/**
 * The providers of this JVM. Reconcilers are created by the runtime with their no-argument
 * constructor, so they find the providers here rather than by injection.
 */
public final class Providers {

    private static volatile Providers current;

    private final ProviderDatabase database;
    private final Faults faults = new Faults();
    private final PaymentProvider payments;
    private final PaymentProvider largePayments;
    private final MailProvider mail;
    private final DeploymentApi deployments;

    private Providers(Path dir) {
        this.database = new ProviderDatabase(dir);
        this.payments = new PaymentProvider(database, faults);
        this.largePayments = new PaymentProvider(database, faults, "psp-large");
        this.mail = new MailProvider(database, faults);
        this.deployments = new DeploymentApi(database, faults);
    }

    /** Opens the providers whose state lives under {@code dir}, for this JVM. */
    public static synchronized Providers open(Path dir) {
        current = new Providers(dir);
        return current;
    }

    /** The providers opened in this JVM. */
    public static Providers current() {
        Providers p = current;
        if (p == null) {
            throw new IllegalStateException("Providers.open(dir) was not called in this JVM");
        }
        return p;
    }

    /** The shared provider state, for counting effects. */
    public ProviderDatabase database() {
        return database;
    }

    /** The failures to inject into this JVM's provider calls. */
    public Faults faults() {
        return faults;
    }

    /** The payment provider. */
    public PaymentProvider payments() {
        return payments;
    }

    /**
     * The payment provider as the large-refund desk calls it: the same answers per idempotency
     * key, its calls counted as {@code psp-large}.
     */
    public PaymentProvider largePayments() {
        return largePayments;
    }

    /** The mail provider. */
    public MailProvider mail() {
        return mail;
    }

    /** The deployment API. */
    public DeploymentApi deployments() {
        return deployments;
    }
}
