package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class WriterResult {
    @IdempotentTool(key = "export:{reportId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public java.io.Writer export(String reportId) { return null; }
}
