package io.idempotent.test.tools;

import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.Reconciler;
import io.idempotent.runtime.Reconciliation;
import io.idempotent.test.ProviderDouble;

/** Asks the mail double whether the email of the operation went out. */
public class MailReconciler implements Reconciler<Receipt> {

    /** Created by the runtime. */
    public MailReconciler() {
    }

    @Override
    public Reconciliation<Receipt> reconcile(OperationRecord operation) {
        return ProviderDouble.current().<Receipt>answer(operation.key()).map(Reconciliation::applied)
                .orElseGet(() -> Reconciliation.notApplied("the mail double has no message for " + operation.key()));
    }
}
