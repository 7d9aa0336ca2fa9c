package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class KeyPartArray {
    @IdempotentTool(key = "upload:{bytes}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String upload(byte[] bytes) { return "ok"; }
}
