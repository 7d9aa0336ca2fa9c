package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.NotPayload;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;

public class AbstractReconciler {
    public abstract static class Base implements io.idempotent.runtime.Reconciler<String> {
    }

    @IdempotentTool(key = "email:{userId}:{step}", downstreamKey = false, retry = Retry.SAFE,
            reconciler = Base.class)
    public String send(String userId) { return userId; }
}
