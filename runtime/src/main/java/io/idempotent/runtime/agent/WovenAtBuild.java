package io.idempotent.runtime.agent;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class whose tool methods the build plugin ({@code io.idempotent.build.IdempotentPlugin})
 * wove at build time. Written by the plugin, never by hand. The agent leaves such a class's tools
 * alone, so that a call makes one claim, not two; the runtime refuses the calls of a class woven
 * for another {@link #FORMAT}, since its inlined code may call the runtime in another way.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface WovenAtBuild {

    /** The weave format this runtime reads: how the inlined code calls {@link ToolDispatcher} and {@link ToolCall}. */
    int FORMAT = 1;

    /** The weave format the class was woven for. */
    int format();

    /** The version of the idempotent-build plugin that wove it, for the messages. */
    String plugin();
}
