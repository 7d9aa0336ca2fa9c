package good;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.NotPayload;
import io.idempotent.annotations.Retry;

/** A generic method's parameter: matched by its erasure, and its key read through its bound's accessors. */
public class GenericParameters {
    public record Ticket(String id) {
    }

    @IdempotentTool(key = "note:{ticket.id}:{text}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public <T extends Ticket> String note(@NotPayload T ticket, String text) { return text; }
}
