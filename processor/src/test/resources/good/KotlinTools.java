package good;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;

/**
 * What kapt shows javac of this Kotlin class (its stub, with bodies that do what kotlinc's do):
 * <pre>
 * class KotlinTools {
 *     companion object {
 *         @JvmStatic @IdempotentTool(key = "deploy:{id}:{step}", ...) fun deploy(id: String): String
 *     }
 *     @IdempotentTool(key = "internal:{id}:{step}", ...) internal fun internalTool(id: String): String
 * }
 * </pre>
 * in a module named kotlin-shapes.
 */
@kotlin.Metadata(mv = {2, 4, 0}, k = 1)
public final class KotlinTools {
    public static final Companion Companion = new Companion();
    public static int deploys;
    public static int internalRuns;

    @kotlin.jvm.JvmStatic
    @IdempotentTool(key = "deploy:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    public static final String deploy(String id) {
        return Companion.deploy(id);
    }

    @IdempotentTool(key = "internal:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
    public final String internalTool$kotlin_shapes(String id) {
        internalRuns++;
        return "internal:" + id;
    }

    @kotlin.Metadata(mv = {2, 4, 0}, k = 1)
    public static final class Companion {
        private Companion() {
        }

        @kotlin.jvm.JvmStatic
        @IdempotentTool(key = "deploy:{id}:{step}", downstreamKey = true, downstreamRetention = "P1D",
                retry = Retry.SAFE)
        public final String deploy(String id) {
            deploys++;
            return "deployed:" + id;
        }
    }
}
