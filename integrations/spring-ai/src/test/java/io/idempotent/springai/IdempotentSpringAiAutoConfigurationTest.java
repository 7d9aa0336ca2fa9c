package io.idempotent.springai;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.MissingOperationKeyException;
import io.idempotent.runtime.OperationInProgressException;
import org.junit.jupiter.api.Test;
import org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.execution.ToolExecutionException;
import org.springframework.ai.tool.execution.ToolExecutionExceptionProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The auto-configuration beside Spring AI's real tool-calling auto-configuration. */
class IdempotentSpringAiAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(IdempotentSpringAiAutoConfiguration.class, ToolCallingAutoConfiguration.class));

    private static ToolExecutionException failed(Throwable cause) {
        return new ToolExecutionException(ToolDefinition.builder().name("t").description("d").inputSchema("{}").build(),
                cause);
    }

    @Test
    void itReplacesSpringAisDefaultProcessor() {
        runner.run(context -> {
            ToolExecutionExceptionProcessor processor = context.getBean(ToolExecutionExceptionProcessor.class);
            assertThat(processor).isInstanceOf(IdempotentToolExecutionExceptionProcessor.class);
            assertThat(processor.process(failed(new OperationInProgressException("t", "k", "stored secret"))))
                    .contains("\"error\":\"retry_later\"").doesNotContain("stored secret");
            // Not the runtime's: Spring AI's default answers with the message.
            assertThat(processor.process(failed(new IllegalStateException("card declined")))).contains("card declined");
        });
    }

    @Test
    void aConfigurationErrorFailsTheTurn() {
        runner.run(context -> {
            ToolExecutionExceptionProcessor processor = context.getBean(ToolExecutionExceptionProcessor.class);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> processor.process(failed(
                    new MissingOperationKeyException("t", "no step")))).isInstanceOf(MissingOperationKeyException.class);
        });
    }

    @Test
    void anApplicationsOwnProcessorIsKept() {
        ToolExecutionExceptionProcessor own = e -> "own";
        runner.withBean(ToolExecutionExceptionProcessor.class, () -> own)
                .run(context -> assertThat(context.getBean(ToolExecutionExceptionProcessor.class)).isSameAs(own));
    }
}
