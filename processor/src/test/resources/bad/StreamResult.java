package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.NotPayload;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;

public class StreamResult {
    @IdempotentTool(key = "export:{reportId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public java.io.InputStream export(String reportId) { return null; }
}
