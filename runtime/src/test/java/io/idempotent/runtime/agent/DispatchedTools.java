package io.idempotent.runtime.agent;

/** A tool class as the agent sees it; its binding is hand-written in {@link DispatchedTools_IdempotentTools}. */
public class DispatchedTools {

    /** Pretend tool method (the annotation is irrelevant to the dispatcher). */
    public String refund(String invoiceId) {
        return "refunded " + invoiceId;
    }

    /** A class compiled without the processor. */
    public static class WithoutBinding {
    }
}
