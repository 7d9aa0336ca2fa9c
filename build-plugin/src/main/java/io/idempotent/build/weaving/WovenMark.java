package io.idempotent.build.weaving;

import io.idempotent.runtime.agent.WovenAtBuild;
import net.bytebuddy.description.annotation.AnnotationDescription;
import net.bytebuddy.description.type.TypeDescription;

/**
 * The mark of a class whose tools were woven at build time: the runtime's {@link WovenAtBuild}
 * annotation, with the weave format and the plugin's version. The agent leaves a marked class's
 * tools alone (one claim per call, not two), the plugin does not weave it twice, and the runtime
 * refuses the calls of a class woven for another format.
 */
public final class WovenMark {

    /** The annotation's name; matched by name, so that the agent needs no runtime class to read it. */
    public static final String ANNOTATION = "io.idempotent.runtime.agent.WovenAtBuild";

    /** The weave format of the advice in this jar: the runtime's, as compiled against (a constant). */
    public static final int FORMAT = WovenAtBuild.FORMAT;

    private WovenMark() {
    }

    /**
     * Whether {@code type} carries the mark. An annotation type that cannot be resolved is not the
     * mark: the class then counts as not woven, and the agent treats it as any other tool class
     * (it refuses the calls when the runtime is not visible).
     */
    public static boolean isWoven(TypeDescription type) {
        for (AnnotationDescription annotation : type.getDeclaredAnnotations()) {
            try {
                if (ANNOTATION.equals(annotation.getAnnotationType().getName())) {
                    return true;
                }
            } catch (RuntimeException e) {
                // Unresolvable annotation: not ours.
            }
        }
        return false;
    }

    /** The mark for a class woven now, by the plugin of {@code pluginVersion}; {@code markType} is {@link WovenAtBuild}. */
    public static AnnotationDescription mark(TypeDescription markType, int format, String pluginVersion) {
        return AnnotationDescription.Builder.ofType(markType)
                .define("format", format)
                .define("plugin", pluginVersion)
                .build();
    }
}
