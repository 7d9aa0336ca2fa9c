package io.idempotent.it.kotlin;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.it.tools.Effects;

/**
 * The class files kotlinc writes for
 * <pre>
 * class CompanionTools {
 *     companion object {
 *         @JvmStatic @IdempotentTool(key = "deploy:{service}:{step}", ...)
 *         fun deploy(service: String): String
 *     }
 * }
 * </pre>
 * (written in Java, with stand-ins for Kotlin's annotations): the companion's member, and a static
 * bridge in the outer class that only calls it, both annotated. One tool: the member is wrapped,
 * the bridge is not, so a call through either runs the body once per operation.
 */
@kotlin.Metadata(mv = {2, 4, 0}, k = 1)
public final class CompanionTools {
    public static final Companion Companion = new Companion();

    @kotlin.jvm.JvmStatic
    @IdempotentTool(key = "deploy:{service}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public static final String deploy(String service) {
        return Companion.deploy(service);
    }

    @kotlin.Metadata(mv = {2, 4, 0}, k = 1)
    public static final class Companion {
        private Companion() {
        }

        @kotlin.jvm.JvmStatic
        @IdempotentTool(key = "deploy:{service}:{step}", downstreamKey = true, downstreamRetention = "P1D",
                retry = Retry.SAFE)
        public final String deploy(String service) {
            Effects.record("deploy:" + service);
            return "deployed:" + service;
        }
    }
}
