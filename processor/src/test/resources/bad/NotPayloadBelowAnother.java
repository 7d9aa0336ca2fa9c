package bad;

import io.idempotent.annotations.NotPayload;

/** NotPayload on a method that is no tool, below another annotation of the same parameter. */
public class NotPayloadBelowAnother {
    public String lookup(String invoiceId,
            @SuppressWarnings("unused")
            @NotPayload
            String requestId) {
        return invoiceId;
    }
}
