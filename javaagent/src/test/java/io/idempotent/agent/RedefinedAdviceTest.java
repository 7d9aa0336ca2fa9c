package io.idempotent.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.build.weaving.ToolAdvice;
import io.idempotent.it.tools.ShapeTools;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.loading.ClassLoadingStrategy;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Tier 1: the agent's advice and matcher applied without an agent, to a copy of the tool class
 * redefined by Byte Buddy and loaded child-first beside the original.
 */
class RedefinedAdviceTest extends AdvisedToolsContract {

    private static Class<?> redefined;

    @BeforeAll
    static void redefine() {
        ClassLoader loader = ShapeTools.class.getClassLoader();
        redefined = new ByteBuddy()
                .redefine(ShapeTools.class, ClassFileLocator.ForClassLoader.of(loader))
                .visit(Advice.to(ToolAdvice.class).on(AgentInstaller.toolMethods()))
                .make()
                .load(loader, ClassLoadingStrategy.Default.CHILD_FIRST)
                .getLoaded();
    }

    @Override
    Class<?> advisedTools() {
        return redefined;
    }

    @Test
    void theCopyIsNotTheOriginal() {
        assertThat(redefined).isNotSameAs(ShapeTools.class);
        assertThat(redefined.getName()).isEqualTo(ShapeTools.class.getName());
    }
}
