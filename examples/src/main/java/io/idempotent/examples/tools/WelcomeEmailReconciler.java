package io.idempotent.examples.tools;

import io.idempotent.examples.providers.Providers;
import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.Reconciler;
import io.idempotent.runtime.Reconciliation;
import java.util.Optional;

/** Asks the mail provider whether the welcome email of an uncertain operation went out. */
public class WelcomeEmailReconciler implements Reconciler<EmailReceipt> {

    /** Created by the runtime. */
    public WelcomeEmailReconciler() {
    }

    /** The reference the tool sends with the email of {@code operationKey}. */
    static String reference(String operationKey) {
        return "idem:" + operationKey;
    }

    @Override
    public Reconciliation<EmailReceipt> reconcile(OperationRecord operation) {
        String reference = operation.downstreamId() != null ? operation.downstreamId() : reference(operation.key());
        Optional<String> sent = Providers.current().mail().findByReference(reference);
        return sent.map(id -> Reconciliation.applied(new EmailReceipt(id, reference)))
                .orElseGet(() -> Reconciliation.notApplied("the mail provider has no message with reference "
                        + reference));
    }
}
