package io.idempotent.examples.contracts;

import io.idempotent.examples.providers.MailProvider;
import io.idempotent.examples.tools.WelcomeEmailTools;
import io.idempotent.test.Downstream;
import io.idempotent.test.ToolContract;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The welcome email's four failure tests: the mail provider does not deduplicate, so an uncertain
 * email is settled by the reconciler's search for its reference, never re-sent blindly.
 */
class WelcomeEmailContractTest {

    @RegisterExtension
    static final ToolContract<WelcomeEmailTools> CONTRACT = ToolContract.forTool(WelcomeEmailTools.class, "sendWelcome")
            .step("signup:u_17")
            .arguments("u_17", "ada@example.com")
            .changedArguments("u_17", "bob@example.com")
            .onDownstream("the example mail provider", faults -> {
                CaseProviders providers = new CaseProviders();
                MailProvider mail = new MailProvider(providers.providers().database(), providers.providers().faults()) {
                    @Override
                    public String send(String reference, String recipient, String subject) {
                        return faults.around("mail", () -> super.send(reference, recipient, subject));
                    }
                };
                return Downstream.of(new WelcomeEmailTools(mail), () -> providers.requests("mail"),
                        () -> providers.effects("mail")).onClose(providers);
            });

    @TestFactory
    Stream<DynamicNode> sendWelcome() {
        return CONTRACT.tests();
    }
}
