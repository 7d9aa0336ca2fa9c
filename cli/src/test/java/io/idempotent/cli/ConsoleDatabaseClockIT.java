package io.idempotent.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Approval;
import io.idempotent.runtime.ApprovalPendingException;
import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.AttemptRecord;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.binding.ToolPolicy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.htmlunit.HttpMethod;
import org.htmlunit.Page;
import org.htmlunit.WebClient;
import org.htmlunit.WebRequest;
import org.htmlunit.html.HtmlForm;
import org.htmlunit.html.HtmlPage;
import org.htmlunit.util.NameValuePair;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The console offers the approve and deny forms of a granted operation exactly when the store
 * would accept a decision: when the database's clock says the grant lapsed, whatever the JVM's
 * clock says. The database here runs its clock hours off the JVM's ({@link SkewedClockDataSource}),
 * as a server on another host can; the console runs in this JVM on that store, and is read with
 * a browser engine (HtmlUnit). On an H2 file and on PostgreSQL.
 */
class ConsoleDatabaseClockIT {

    private static final String TOOL = "refund_over_limit";
    private static final String KEY = "refund:inv_7:approval-7";
    private static final String TOKEN = "0123456789abcdef0123456789abcdef";
    private static final Map<String, Object> PAYLOAD = Map.of("invoiceId", "inv_7", "amountCents", 90_000L);

    @TempDir
    Path dir;

    private IdempotentRuntime runtime;
    private ConsoleServer console;
    private WebClient browser;

    @AfterEach
    void close() {
        if (browser != null) {
            browser.close();
        }
        if (console != null) {
            console.close();
        }
        if (runtime != null) {
            runtime.close();
        }
    }

    private static ToolPolicy policy(Duration validity) {
        return ToolPolicy.builder(TOOL).keyTemplate("refund:{invoiceId}:{step}").downstreamKey(true)
                .downstreamRetention(Duration.ofDays(1)).approval(Approval.REQUIRED).approvalValidity(validity)
                .payloadParameters(List.of("invoiceId", "amountCents")).build();
    }

    /** Opens the store with its clock {@code hours} off, records the request and grants it; returns the hash. */
    private String grantedOn(Stores kind, int hours, Duration validity) throws Exception {
        runtime = IdempotentRuntime.builder().store("default", SkewedClockDataSource.of(kind.create(dir), hours))
                .build();
        assertThatThrownBy(() -> runtime.call(policy(validity), KEY, PAYLOAD, String.class, () -> "re_inv_7"))
                .isInstanceOf(ApprovalPendingException.class);
        String hash = runtime.approvals().pending("default", TOOL, 0, 10).get(0).payloadHash();
        runtime.approvals().grant("default", TOOL, KEY, hash, "alice", "checked");
        return hash;
    }

    /** Starts the console on the runtime's store and logs a browser in; returns the operation's page. */
    private HtmlPage operationPage() throws Exception {
        console = new ConsoleServer(runtime, "default", failure -> failure, null, TOKEN,
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), Set.of());
        console.start();
        browser = new WebClient();
        browser.getOptions().setJavaScriptEnabled(false);
        browser.getOptions().setCssEnabled(false);
        browser.getOptions().setThrowExceptionOnFailingStatusCode(false);
        HtmlPage login = browser.getPage(console.uri() + "login");
        HtmlForm form = login.getHtmlElementById("login");
        form.getInputByName("token").setValue(TOKEN);
        form.getButtonByName("login").click();
        return browser.getPage(console.uri() + ConsolePages.operationLink(TOOL, KEY).substring(1));
    }

    private OperationRecord record() {
        return runtime.operations().find("default", TOOL, KEY).orElseThrow();
    }

    @ParameterizedTest
    @EnumSource(Stores.class)
    void aGrantTheDatabaseSaysLapsedIsOfferedForADecisionThoughTheJvmClockSaysItRunsAnHourMore(Stores kind)
            throws Exception {
        grantedOn(kind, 1, Duration.ofSeconds(1));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        long pending = 0;
        // The count only reads; the queue's read (pending) would record the lapse, which the decision below must do.
        while (pending == 0 && System.nanoTime() < deadline) {
            pending = runtime.approvals().countPending("default").getOrDefault(TOOL, 0L);
            Thread.sleep(50); // polling the store's verdict, with the deadline above
        }
        assertThat(pending).as("the database says the grant lapsed").isEqualTo(1);
        assertThat(record().leaseUntil()).as("the JVM's clock would say the grant runs for an hour more")
                .isAfter(java.time.Instant.now().plus(Duration.ofMinutes(30)));

        HtmlPage page = operationPage();
        assertThat(page.getWebResponse().getStatusCode()).isEqualTo(200);
        assertThat(page.getElementById("deny")).as("the deny form").isNotNull();
        HtmlForm grant = page.getHtmlElementById("grant");
        grant.getInputByName("reason").setValue("asked again");
        grant.getInputByName("operator").setValue("bob");
        grant.getInputByName("token").setValue(TOKEN);
        HtmlPage confirm = grant.getButtonByName("review").click();
        HtmlPage approved = ((HtmlForm) confirm.getHtmlElementById("confirm")).getButtonByName("confirm").click();

        assertThat(approved.asNormalizedText()).contains("Approved.");
        assertThat(record().status()).isEqualTo(OperationStatus.APPROVED);
        assertThat(record().attemptLog()).extracting(AttemptRecord::outcome)
                .filteredOn(o -> o == AttemptOutcome.APPROVAL_GRANTED).hasSize(2);
        // The lapse is recorded before the new decision (issue 48).
        assertThat(record().attemptLog()).extracting(AttemptRecord::outcome).containsSubsequence(
                AttemptOutcome.APPROVAL_GRANTED, AttemptOutcome.APPROVAL_EXPIRED, AttemptOutcome.APPROVAL_GRANTED);
    }

    @ParameterizedTest
    @EnumSource(Stores.class)
    void aGrantTheDatabaseSaysRunsIsNotOfferedThoughTheJvmClockSaysItLapsedAnHourAgo(Stores kind) throws Exception {
        String hash = grantedOn(kind, -2, Duration.ofHours(1));
        assertThat(runtime.approvals().pending("default", TOOL, 0, 10)).as("the database says the grant runs")
                .isEmpty();
        assertThat(record().leaseUntil()).as("the JVM's clock would say the grant lapsed")
                .isBefore(java.time.Instant.now().minus(Duration.ofMinutes(30)));

        HtmlPage page = operationPage();
        assertThat(page.getWebResponse().getStatusCode()).isEqualTo(200);
        assertThat(page.asNormalizedText()).contains("grant valid until");
        assertThat(page.getElementById("grant")).as("the grant form").isNull();
        assertThat(page.getElementById("deny")).as("the deny form").isNull();

        // A decision sent anyway (a page kept open from before the grant) is refused at its review.
        String csrf = ((HtmlForm) page.getHtmlElementById("logout")).getInputByName("csrf").getValue();
        WebRequest request = new WebRequest(new URL(console.uri() + "approval/confirm"), HttpMethod.POST);
        request.setRequestParameters(List.of(new NameValuePair("csrf", csrf), new NameValuePair("tool", TOOL),
                new NameValuePair("key", KEY), new NameValuePair("payloadHash", hash),
                new NameValuePair("decision", "deny"), new NameValuePair("operator", "mallory"),
                new NameValuePair("token", TOKEN)));
        Page refused = browser.getPage(request);
        assertThat(refused.getWebResponse().getStatusCode()).isEqualTo(409);
        assertThat(refused.getWebResponse().getContentAsString()).contains("it does not await approval");
        assertThat(record().status()).isEqualTo(OperationStatus.APPROVED);
        assertThat(record().attemptLog()).extracting(AttemptRecord::outcome)
                .doesNotContain(AttemptOutcome.APPROVAL_DENIED);
    }
}
