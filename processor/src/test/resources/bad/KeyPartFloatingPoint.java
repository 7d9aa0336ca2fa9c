package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class KeyPartFloatingPoint {
    @IdempotentTool(key = "charge:{amount}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public String charge(double amount) { return "ok"; }
}
