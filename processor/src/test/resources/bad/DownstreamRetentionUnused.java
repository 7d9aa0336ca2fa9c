package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;

public class DownstreamRetentionUnused {
    @IdempotentTool(key = "email:{userId}:{step}", downstreamKey = false, reconciler = ManualReview.class,
            retry = Retry.SAFE,
            downstreamRetention = "P1D")
    public String sendWelcome(String userId) { return userId; }
}
