package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.NotPayload;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;

public class UncertainRetry {
    @IdempotentTool(key = "email:{userId}:{step}", downstreamKey = false, reconciler = ManualReview.class,
            retry = Retry.UNCERTAIN)
    public String sendWelcome(String userId) { return userId; }
}
