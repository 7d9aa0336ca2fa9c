package io.idempotent.cli;

import static io.idempotent.cli.ExampleRecords.EMAIL;
import static io.idempotent.cli.ExampleRecords.LOST_EMAIL;
import static io.idempotent.cli.ExampleRecords.UNSENT_EMAIL;
import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.examples.tools.EmailReceipt;
import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.AttemptRecord;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.OperationStatus;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.htmlunit.HttpMethod;
import org.htmlunit.Page;
import org.htmlunit.WebClient;
import org.htmlunit.WebRequest;
import org.htmlunit.html.HtmlAnchor;
import org.htmlunit.html.HtmlForm;
import org.htmlunit.html.HtmlPage;
import org.htmlunit.util.NameValuePair;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web console in a browser engine (HtmlUnit), against {@code idempotent-cli serve} run as a
 * process on records the examples' failures produced.
 */
class ConsoleIT {

    private static final Pattern URL_LINE = Pattern.compile("Console of store default \\(.*\\) at (http://\\S+)");
    private static final Pattern TOKEN_LINE = Pattern.compile("Settlement token: ([0-9a-f]+) ");

    @TempDir
    Path dir;

    private Stores.Store store;
    private Process serve;
    private String base;
    private String token;
    private WebClient browser;

    @BeforeEach
    void startConsole() throws Exception {
        store = Stores.H2_FILE.create(dir);
        ExampleRecords.write(store.url(), store.user(), store.password(), dir.resolve("providers"));
        String classes = Path.of(EmailReceipt.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
        serve = new CliProcess(store.environment(), dir).builder("serve", "--port", "0", "--app-classpath", classes)
                .redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        for (String line = out.readLine(); line != null && (base == null || token == null); line = out.readLine()) {
            seen.append(line).append('\n');
            Matcher url = URL_LINE.matcher(line);
            if (url.find()) {
                base = url.group(1);
            }
            Matcher secret = TOKEN_LINE.matcher(line);
            if (secret.find()) {
                token = secret.group(1);
            }
        }
        assertThat(base).as("serve printed:\n" + seen).isNotNull().startsWith("http://127.0.0.1:");
        assertThat(token).as("serve printed:\n" + seen).isNotNull();
        browser = new WebClient();
        browser.getOptions().setJavaScriptEnabled(false);
        browser.getOptions().setCssEnabled(false);
        browser.getOptions().setThrowExceptionOnFailingStatusCode(false);
    }

    @AfterEach
    void stopConsole() throws Exception {
        if (browser != null) {
            browser.close();
        }
        if (serve != null) {
            serve.destroy();
            if (!serve.waitFor(30, TimeUnit.SECONDS)) {
                serve.destroyForcibly();
            }
        }
    }

    private OperationRecord read(String key) {
        try (IdempotentRuntime runtime = IdempotentRuntime.builder()
                .store("default", store.url(), store.user(), store.password()).build()) {
            return runtime.operations().find("default", EMAIL, key).orElseThrow();
        }
    }

    @Test
    void anOperatorSettlesFromTheQueueAndTheOperationLeavesIt() throws Exception {
        HtmlPage queue = browser.getPage(base);
        assertThat(queue.getWebResponse().getStatusCode()).isEqualTo(200);
        assertThat(queue.asNormalizedText()).contains(LOST_EMAIL, UNSENT_EMAIL);

        HtmlPage operation = queue.getAnchorByText(UNSENT_EMAIL).click();
        assertThat(operation.asNormalizedText()).contains("needs_reconciliation", "idem:" + UNSENT_EMAIL);
        HtmlForm form = operation.getHtmlElementById("settle-not-applied");
        form.getInputByName("reason").setValue("the provider has no message idem:" + UNSENT_EMAIL);
        form.getInputByName("operator").setValue("alice");
        form.getInputByName("token").setValue(token);
        HtmlPage confirm = form.getButtonByName("review").click();
        assertThat(confirm.asNormalizedText()).contains("Confirm the settlement", "not applied", "alice");
        // Reviewing changed nothing yet.
        assertThat(read(UNSENT_EMAIL).status()).isEqualTo(OperationStatus.NEEDS_RECONCILIATION);

        HtmlForm confirmation = confirm.getHtmlElementById("confirm");
        HtmlPage settled = confirmation.getButtonByName("confirm").click();
        assertThat(settled.asNormalizedText()).contains("Settled.", "failed_safe", "SETTLED_NOT_APPLIED", "alice");

        OperationRecord op = read(UNSENT_EMAIL);
        assertThat(op.status()).isEqualTo(OperationStatus.FAILED_SAFE);
        assertThat(op.attemptLog()).extracting(AttemptRecord::outcome).contains(AttemptOutcome.SETTLED_NOT_APPLIED);

        HtmlPage after = browser.getPage(base);
        List<String> keys = after.getAnchors().stream().map(HtmlAnchor::getTextContent).toList();
        assertThat(keys).contains(LOST_EMAIL).doesNotContain(UNSENT_EMAIL);

        // The same confirmation cannot be replayed.
        Page replayed = post("/settle", List.of(new NameValuePair("csrf", csrf(operation)),
                new NameValuePair("confirmation", confirmation.getInputByName("confirmation").getValue())), null);
        assertThat(replayed.getWebResponse().getStatusCode()).isEqualTo(409);
    }

    @Test
    void aResultThatFitsSettlesAsAppliedAndOneThatDoesNotIsRefused() throws Exception {
        HtmlPage operation = browser.getPage(base + ConsolePages.operationLink(EMAIL, LOST_EMAIL).substring(1));
        HtmlForm form = operation.getHtmlElementById("settle-applied");
        form.getTextAreaByName("result").setText("{\"id\":\"msg_1\"}");
        form.getInputByName("operator").setValue("alice");
        form.getInputByName("token").setValue(token);
        HtmlPage refused = form.getButtonByName("review").click();
        assertThat(refused.getWebResponse().getStatusCode()).isEqualTo(409);
        assertThat(refused.asNormalizedText()).contains("does not fit", "Nothing was changed");
        assertThat(read(LOST_EMAIL).status()).isEqualTo(OperationStatus.NEEDS_RECONCILIATION);

        operation = browser.getPage(base + ConsolePages.operationLink(EMAIL, LOST_EMAIL).substring(1));
        form = operation.getHtmlElementById("settle-applied");
        form.getTextAreaByName("result").setText("{\"messageId\":\"msg_1\",\"reference\":\"idem:" + LOST_EMAIL + "\"}");
        form.getInputByName("operator").setValue("alice");
        form.getInputByName("token").setValue(token);
        HtmlPage confirm = form.getButtonByName("review").click();
        HtmlPage settled = ((HtmlForm) confirm.getHtmlElementById("confirm")).getButtonByName("confirm").click();
        assertThat(settled.asNormalizedText()).contains("Settled.", "completed", "SETTLED_APPLIED");
        assertThat(read(LOST_EMAIL).status()).isEqualTo(OperationStatus.COMPLETED);
    }

    @Test
    void aSettlementWithoutTheTokenOrFromAnotherOriginIsRefusedAndChangesNothing() throws Exception {
        HtmlPage operation = browser.getPage(base + ConsolePages.operationLink(EMAIL, UNSENT_EMAIL).substring(1));
        String csrf = csrf(operation);
        List<NameValuePair> fields = List.of(new NameValuePair("csrf", csrf), new NameValuePair("tool", EMAIL),
                new NameValuePair("key", UNSENT_EMAIL), new NameValuePair("outcome", "not-applied"),
                new NameValuePair("reason", "forged"), new NameValuePair("operator", "mallory"));

        Page noToken = post("/settle/confirm", fields, null);
        assertThat(noToken.getWebResponse().getStatusCode()).isEqualTo(403);

        List<NameValuePair> withToken = new java.util.ArrayList<>(fields);
        withToken.add(new NameValuePair("token", token));
        Page otherOrigin = post("/settle/confirm", withToken, "http://evil.example");
        assertThat(otherOrigin.getWebResponse().getStatusCode()).isEqualTo(403);

        List<NameValuePair> noCsrf = new java.util.ArrayList<>(withToken);
        noCsrf.set(0, new NameValuePair("csrf", "guessed"));
        assertThat(post("/settle/confirm", noCsrf, null).getWebResponse().getStatusCode()).isEqualTo(403);

        Page madeUp = post("/settle", List.of(new NameValuePair("csrf", csrf),
                new NameValuePair("confirmation", "0123456789abcdef")), null);
        assertThat(madeUp.getWebResponse().getStatusCode()).isEqualTo(409);

        OperationRecord op = read(UNSENT_EMAIL);
        assertThat(op.status()).isEqualTo(OperationStatus.NEEDS_RECONCILIATION);
        assertThat(op.attemptLog()).extracting(AttemptRecord::outcome)
                .doesNotContain(AttemptOutcome.SETTLED_NOT_APPLIED, AttemptOutcome.SETTLED_APPLIED);
    }

    private static String csrf(HtmlPage page) {
        return ((HtmlForm) page.getHtmlElementById("settle-not-applied")).getInputByName("csrf").getValue();
    }

    private Page post(String path, List<NameValuePair> fields, String origin) throws Exception {
        WebRequest request = new WebRequest(new URL(base + path.substring(1)), HttpMethod.POST);
        request.setRequestParameters(fields);
        if (origin != null) {
            request.setAdditionalHeader("Origin", origin);
        }
        return browser.getPage(request);
    }
}
