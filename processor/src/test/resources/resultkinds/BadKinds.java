package resultkinds;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import java.util.List;
import java.util.concurrent.CompletionStage;

public class BadKinds {
    @IdempotentTool(key = "a:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public <T> T generic(String id) { return null; }

    @IdempotentTool(key = "b:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public CompletionStage<?> unbounded(String id) { return null; }

    @SuppressWarnings("rawtypes")
    @IdempotentTool(key = "c:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public CompletionStage raw(String id) { return null; }

    @IdempotentTool(key = "d:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public List<? super String> lowerBounded(String id) { return null; }

    @IdempotentTool(key = "e:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public Object[] objects(String id) { return null; }
}
