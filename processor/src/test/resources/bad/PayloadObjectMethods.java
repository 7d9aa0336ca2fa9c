package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class PayloadObjectMethods {
    /** One method of its own: a lambda fits it; equals, hashCode and toString are every object's. */
    public interface Discount {
        long apply(long cents);

        boolean equals(Object other);

        int hashCode();

        String toString();
    }

    @IdempotentTool(key = "quote:{sku}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public long quote(String sku, Discount discount) { return discount.apply(100L); }
}
