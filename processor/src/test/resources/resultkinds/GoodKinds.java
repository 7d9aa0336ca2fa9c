package resultkinds;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import java.util.concurrent.CompletionStage;

public class GoodKinds {
    public record Receipt(String id) {}

    @IdempotentTool(key = "codes:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public String[] codes(String id) { return new String[] {id}; }

    @IdempotentTool(key = "pay:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public CompletionStage<? extends Receipt> pay(String id) { return null; }
}
