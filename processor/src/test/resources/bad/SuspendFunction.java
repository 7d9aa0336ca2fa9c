package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import kotlin.coroutines.Continuation;

/** What javac sees of a Kotlin {@code suspend fun refund(invoiceId: String): String}. */
public class SuspendFunction {
    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public Object refund(String invoiceId, Continuation<? super String> continuation) { return null; }
}
