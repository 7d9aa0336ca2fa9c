package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class KeyPartCollection {
    @IdempotentTool(key = "tag:{tags}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String tag(java.util.Set<String> tags) { return "ok"; }
}
