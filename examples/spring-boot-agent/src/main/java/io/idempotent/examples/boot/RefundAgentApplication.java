package io.idempotent.examples.boot;

import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OperationRecord;
import org.springframework.ai.tool.execution.ToolExecutionExceptionProcessor;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The recommended setup, runnable: a Spring Boot application whose Spring AI tool is an
 * idempotent tool. Start it with the agent:
 * {@code java -javaagent:idempotent-javaagent.jar -jar app.jar}. It runs three refund decisions
 * through the (scripted) model and prints, for each, what the model answered, what the payment
 * provider saw and what the operation store holds:
 * <ol>
 * <li>the model repeats its tool call under a new tool_call_id: one refund, the repeat replays;</li>
 * <li>the model changes the amount under the same decision: the repeat is told it conflicts;</li>
 * <li>the provider's reply is lost: the business transaction rolls back, the operation record
 *     stays, and the repeat is told the outcome has gone to review.</li>
 * </ol>
 */
@SpringBootApplication
public class RefundAgentApplication {

    public static void main(String[] args) {
        try (ConfigurableApplicationContext context = SpringApplication.run(RefundAgentApplication.class, args)) {
            RefundWorkflow workflow = context.getBean(RefundWorkflow.class);
            PaymentProvider provider = context.getBean(PaymentProvider.class);
            System.out.println("processor=" + context.getBean(ToolExecutionExceptionProcessor.class).getClass()
                    .getSimpleName() + " cglib=" + AopUtils.isCglibProxy(context.getBean(RefundTools.class)));
            String run = Long.toString(System.nanoTime(), 36);

            report(context, "repeat", "inv_a" + run, workflow.refund("inv_a" + run, "approval_1", 1250), provider);
            report(context, "conflict", "inv_b" + run,
                    workflow.ask("inv_b" + run, "approval_1", "refund inv_b" + run + " 1250 9999"), provider);
            provider.loseNextReply();
            report(context, "lost-reply", "inv_c" + run, workflow.refund("inv_c" + run, "approval_1", 1250), provider);
        }
    }

    private static void report(ConfigurableApplicationContext context, String scenario, String invoice, String answer,
            PaymentProvider provider) {
        Integer rows = context.getBean(JdbcTemplate.class).queryForObject(
                "select count(*) from refund_log where invoice_id = ?", Integer.class, invoice);
        OperationRecord record = IdempotentRuntime.global().operations()
                .find("issue_refund", "refund:" + invoice + ":approval_1").orElseThrow();
        System.out.println(scenario + ": answer=" + answer);
        System.out.println(scenario + ": psp.requests=" + provider.requests() + " psp.effects=" + provider.effects()
                + " rows=" + rows + " status=" + record.status() + " attempts=" + record.attempts());
    }
}
