package io.idempotent.agent;

import java.lang.instrument.Instrumentation;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;

/**
 * The agent's two transformations in the order the JVM applies them: the protocol, then the
 * refusal of every class the protocol failed to transform. In-process tests reset both.
 */
public record InstalledTransformers(ResettableClassFileTransformer protocol, ResettableClassFileTransformer refusal) {

    /** Removes both transformations and retransforms the classes they changed. */
    public void reset(Instrumentation instrumentation) {
        refusal.reset(instrumentation, AgentBuilder.RedefinitionStrategy.RETRANSFORMATION);
        protocol.reset(instrumentation, AgentBuilder.RedefinitionStrategy.RETRANSFORMATION);
    }
}
