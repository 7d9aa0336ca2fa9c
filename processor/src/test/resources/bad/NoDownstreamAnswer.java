package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.NotPayload;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;

public class NoDownstreamAnswer {
    @IdempotentTool(key = "email:{userId}:{step}", downstreamKey = false, retry = Retry.SAFE)
    public String sendWelcome(String userId) { return userId; }
}
