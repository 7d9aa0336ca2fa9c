package io.idempotent.test.tools;

import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.Reconciler;
import io.idempotent.runtime.Reconciliation;

/** A reconciler that answers without asking the downstream: always NOT_APPLIED. Wrong on purpose. */
public class AlwaysNotApplied implements Reconciler<Receipt> {

    /** Created by the runtime. */
    public AlwaysNotApplied() {
    }

    @Override
    public Reconciliation<Receipt> reconcile(OperationRecord operation) {
        return Reconciliation.notApplied("assumed, not checked");
    }
}
