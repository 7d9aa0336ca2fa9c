package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

public class ResultInterface {
    public interface PaymentMethod {
        String id();

        String kind();
    }

    public record Receipt(String id, PaymentMethod method) {
    }

    @IdempotentTool(key = "pay:{orderId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public Receipt pay(String orderId) { return null; }
}
