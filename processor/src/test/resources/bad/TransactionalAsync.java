package bad;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import java.util.concurrent.CompletionStage;

/** The transaction belongs to the claiming thread; a stage completes elsewhere. */
public class TransactionalAsync {
    @IdempotentTool(key = "credit:{invoiceId}:{step}", downstreamKey = false, retry = Retry.SAFE,
            transactional = true)
    public CompletionStage<String> creditNote(String invoiceId) { return null; }
}
