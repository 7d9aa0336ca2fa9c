package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.NotPayload;
import io.idempotent.annotations.Retry;

public class KeyPartTypeVariable {
    @IdempotentTool(key = "note:{id}:{hint}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public <T> String note(String id, @NotPayload T hint) { return id; }
}
