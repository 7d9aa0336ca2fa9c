package io.idempotent.temporal;

import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.util.List;

/** The refund desk workflow: refunds per its plan; answers each refund id or "failure:TYPE". */
@WorkflowInterface
public interface RefundDesk {

    @WorkflowMethod
    List<String> run(DeskPlan plan);

    /** Lets a desk that waits before its second refund go on. */
    @SignalMethod
    void release();
}
