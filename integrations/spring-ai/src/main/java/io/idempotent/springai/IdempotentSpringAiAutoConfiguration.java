package io.idempotent.springai;

import org.springframework.ai.tool.execution.DefaultToolExecutionExceptionProcessor;
import org.springframework.ai.tool.execution.ToolExecutionExceptionProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Registers the {@link IdempotentToolExecutionExceptionProcessor} before Spring AI's tool-calling
 * auto-configuration, which then uses it instead of its default. Failures that are not the
 * runtime's still go to Spring AI's default processor, with the usual
 * {@code spring.ai.tools.throw-exception-on-error} setting. An application that defines its own
 * {@code ToolExecutionExceptionProcessor} keeps it (wrap it to get the runtime's replies).
 */
@AutoConfiguration(beforeName = "org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration")
@ConditionalOnClass({ToolExecutionExceptionProcessor.class, io.idempotent.runtime.IdempotencyException.class})
public class IdempotentSpringAiAutoConfiguration {

    /** Used by Spring. */
    public IdempotentSpringAiAutoConfiguration() {
    }

    /** The processor Spring AI's tool calling uses. */
    @Bean
    @ConditionalOnMissingBean(ToolExecutionExceptionProcessor.class)
    public IdempotentToolExecutionExceptionProcessor idempotentToolExecutionExceptionProcessor(Environment environment) {
        boolean alwaysThrow = environment.getProperty("spring.ai.tools.throw-exception-on-error", Boolean.class, false);
        return new IdempotentToolExecutionExceptionProcessor(new DefaultToolExecutionExceptionProcessor(alwaysThrow));
    }
}
