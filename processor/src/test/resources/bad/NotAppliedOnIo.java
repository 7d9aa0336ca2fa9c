package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.NotPayload;
import io.idempotent.annotations.Retry;

public class NotAppliedOnIo {
    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE,
            notAppliedOn = java.net.SocketTimeoutException.class)
    public String refund(String invoiceId) { return invoiceId; }

    @IdempotentTool(key = "charge:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE,
            notAppliedOn = {java.net.ConnectException.class, java.net.UnknownHostException.class})
    public String charge(String invoiceId) { return invoiceId; }
}
