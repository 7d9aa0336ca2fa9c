package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class KeyPartZonedDateTime {
    @IdempotentTool(key = "meeting:{at}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String book(java.time.ZonedDateTime at) { return "ok"; }
}
