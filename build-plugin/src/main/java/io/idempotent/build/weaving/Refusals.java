package io.idempotent.build.weaving;

/**
 * The words of a refused call, one home for the agent's refusals and the woven code's. Compile-time
 * constants, so that the inlined advice carries the text and references no class of this jar.
 */
public final class Refusals {

    /** Starts every refusal, followed by the tool's class and method. */
    public static final String PREFIX = "@IdempotentTool method ";

    /** Between the tool and the reason. */
    public static final String REFUSED = " refused: ";

    /** The reason when the tool's class loader cannot see idempotent-runtime. */
    public static final String RUNTIME_MISSING = "idempotent-runtime is not on its class path, so the call cannot be"
            + " claimed. Add io.idempotent:idempotent-runtime to the application";

    private Refusals() {
    }
}
