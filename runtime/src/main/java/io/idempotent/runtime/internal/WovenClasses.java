package io.idempotent.runtime.internal;

import io.idempotent.runtime.MissingBindingException;
import io.idempotent.runtime.agent.WovenAtBuild;

/**
 * Refuses the calls of a class woven at build time for a weave format this runtime does not read:
 * its inlined code may call the dispatcher in another way, so its binding cannot be trusted.
 */
final class WovenClasses {

    private WovenClasses() {
    }

    /** Throws when {@code toolClass} was woven for another format; a class not woven passes. */
    static void check(Class<?> toolClass) {
        WovenAtBuild mark = toolClass.getAnnotation(WovenAtBuild.class);
        if (mark != null && mark.format() != WovenAtBuild.FORMAT) {
            throw new MissingBindingException(null, null, toolClass.getName() + " was woven at build time by"
                    + " idempotent-build " + mark.plugin() + " for weave format " + mark.format() + ", but this"
                    + " idempotent-runtime reads weave format " + WovenAtBuild.FORMAT, "Weave it with the"
                    + " io.idempotent:idempotent-build of the same version as the idempotent-runtime it runs with"
                    + " (a clean build: mvn clean verify); the call is refused", null);
        }
    }
}
