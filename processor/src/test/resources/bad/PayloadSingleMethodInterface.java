package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import java.util.List;

public class PayloadSingleMethodInterface {
    /** Not marked @FunctionalInterface, but a lambda fits it all the same. */
    public interface PriceRule {
        long price(String sku);
    }

    @IdempotentTool(key = "quote:{customerId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public long quote(String customerId,
            List<PriceRule> rules) { return 0; }
}
