package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.NotPayload;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;

public class NotAReconciler {
    @IdempotentTool(key = "email:{userId}:{step}", downstreamKey = false, retry = Retry.SAFE,
            reconciler = String.class)
    public String send(String userId) { return userId; }
}
