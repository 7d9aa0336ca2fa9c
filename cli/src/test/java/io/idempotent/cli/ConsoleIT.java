package io.idempotent.cli;

import static io.idempotent.cli.ExampleRecords.COMPLETED_REFUND;
import static io.idempotent.cli.ExampleRecords.EMAIL;
import static io.idempotent.cli.ExampleRecords.LOST_EMAIL;
import static io.idempotent.cli.ExampleRecords.REFUND;
import static io.idempotent.cli.ExampleRecords.UNSENT_EMAIL;
import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.examples.tools.EmailReceipt;
import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.AttemptRecord;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.testing.FrozenPostgres;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
    private Path log;

    @BeforeEach
    void startConsole() throws Exception {
        store = Stores.H2_FILE.create(dir);
        ExampleRecords.write(store.url(), store.user(), store.password(), dir.resolve("providers"));
        launch();
    }

    /** Starts {@code serve} on the store with {@code extra} options; sets base, token and log. */
    private void launch(String... extra) throws Exception {
        launch(store.environment(), extra);
    }

    /** Starts {@code serve} in {@code environment} with {@code extra} options; sets base, token and log. */
    private void launch(Map<String, String> environment, String... extra) throws Exception {
        base = null;
        token = null;
        String classes = Path.of(EmailReceipt.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
        log = Files.createTempFile(dir, "serve", ".log");
        // The console's output goes to a file, so that nothing blocks on a full pipe and the test can read its log.
        List<String> args = new java.util.ArrayList<>(List.of("serve", "--port", "0", "--app-classpath", classes));
        args.addAll(List.of(extra));
        serve = new CliProcess(environment, dir).builder(args.toArray(String[]::new))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while ((base == null || token == null) && System.nanoTime() < deadline && serve.isAlive()) {
            for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                Matcher url = URL_LINE.matcher(line);
                if (url.find()) {
                    base = url.group(1);
                }
                Matcher secret = TOKEN_LINE.matcher(line);
                if (secret.find()) {
                    token = secret.group(1);
                }
            }
            Thread.sleep(20); // polling the log file, with the deadline above
        }
        String seen = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(base).as("serve printed:\n" + seen).isNotNull().startsWith("http://127.0.0.1:");
        assertThat(token).as("serve printed:\n" + seen).isNotNull();
        browser = newBrowser();
    }

    private static WebClient newBrowser() {
        WebClient client = new WebClient();
        client.getOptions().setJavaScriptEnabled(false);
        client.getOptions().setCssEnabled(false);
        client.getOptions().setThrowExceptionOnFailingStatusCode(false);
        return client;
    }

    /** Logs {@code client} in with {@code secret} through the login form; returns the page it lands on. */
    private HtmlPage logIn(WebClient client, String secret) throws Exception {
        HtmlPage login = client.getPage(base + "login");
        HtmlForm form = login.getHtmlElementById("login");
        form.getInputByName("token").setValue(secret);
        return form.getButtonByName("login").click();
    }

    @AfterEach
    void stopConsole() throws Exception {
        if (browser != null) {
            browser.close();
        }
        stopServe();
    }

    private void stopServe() throws Exception {
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
    void everyPageNeedsALoginAndTheTokenNeverAppearsInAUrlOrAPage() throws Exception {
        String operationPage = base + ConsolePages.operationLink(EMAIL, LOST_EMAIL).substring(1);
        for (String page : List.of(base, operationPage)) {
            Page anonymous = browser.getPage(page);
            assertThat(anonymous.getWebResponse().getStatusCode()).as(page).isEqualTo(401);
            assertThat(anonymous.getWebResponse().getContentAsString()).as(page)
                    .doesNotContain(LOST_EMAIL, UNSENT_EMAIL, "u1@example.com", "idem:", token);
        }

        HtmlPage wrong = logIn(browser, token + "x");
        assertThat(wrong.getWebResponse().getStatusCode()).isEqualTo(401);
        assertThat(wrong.asNormalizedText()).contains("wrong").doesNotContain(LOST_EMAIL);
        assertThat(browser.getPage(base).getWebResponse().getStatusCode()).isEqualTo(401);

        HtmlPage queue = logIn(browser, token);
        assertThat(queue.getWebResponse().getStatusCode()).isEqualTo(200);
        assertThat(queue.asNormalizedText()).contains(LOST_EMAIL, UNSENT_EMAIL);
        String cookie = browser.getCookieManager().getCookies().stream().map(c -> c.getName() + "=" + c.getValue())
                .reduce("", String::concat);
        assertThat(cookie).isNotEmpty().doesNotContain(token);
        HtmlPage operation = browser.getPage(operationPage);
        assertThat(operation.getWebResponse().getStatusCode()).isEqualTo(200);
        assertThat(operation.asNormalizedText()).contains("u1@example.com");
        for (HtmlPage seen : List.of(wrong, queue, operation)) {
            assertThat(seen.getUrl().toString()).doesNotContain(token);
            assertThat(seen.getWebResponse().getContentAsString()).doesNotContain(token);
        }

        // Another client, with no session, still reads nothing.
        try (WebClient other = newBrowser()) {
            assertThat(other.getPage(operationPage).getWebResponse().getStatusCode()).isEqualTo(401);
        }

        HtmlForm logout = operation.getHtmlElementById("logout");
        logout.getButtonByName("logout").click();
        Page after = browser.getPage(operationPage);
        assertThat(after.getWebResponse().getStatusCode()).isEqualTo(401);
        assertThat(after.getWebResponse().getContentAsString()).doesNotContain("u1@example.com");
    }

    /**
     * A store that stops answering while the console serves (a frozen PostgreSQL, SIGSTOP) is
     * explained on the page as the command line explains it (the store, the socket timeout and
     * where it was set, an operator's advice), with no stored data and no stack trace.
     */
    @Test
    void aStoreThatStopsAnsweringIsExplainedOnThePageAsOnTheCommandLine() throws Exception {
        stopServe();
        try (FrozenPostgres postgres = FrozenPostgres.start(dir.resolve("postgres"))) {
            String url = postgres.jdbcUrl();
            ExampleRecords.write(url, "postgres", "postgres", dir.resolve("frozen-providers"));
            Map<String, String> environment = new HashMap<>(Map.of("IDEMPOTENT_STORE_URL", url,
                    "IDEMPOTENT_STORE_USER", "postgres", "IDEMPOTENT_STORE_PASSWORD", "postgres",
                    "IDEMPOTENT_STORE_SOCKET_TIMEOUT", "PT1S"));
            launch(environment);
            HtmlPage queue = logIn(browser, token);
            assertThat(queue.asNormalizedText()).contains(LOST_EMAIL);

            postgres.freeze();
            Page failed = browser.getPage(base + ConsolePages.operationLink(EMAIL, LOST_EMAIL).substring(1));
            CliProcess.Result command = new CliProcess(environment, dir).run(Duration.ofSeconds(30), "show", EMAIL,
                    LOST_EMAIL);
            postgres.thaw();

            String page = failed.getWebResponse().getContentAsString();
            assertThat(failed.getWebResponse().getStatusCode()).as(page).isEqualTo(503);
            String error = ((HtmlPage) failed).getHtmlElementById("error").asNormalizedText();
            assertThat(error).startsWith("could not ").contains("store \"default\"", "the server sent no reply within"
                    + " the socket timeout (PT1S, IDEMPOTENT_STORE_SOCKET_TIMEOUT)", "then try again")
                    .doesNotContain("the same key");
            String line = command.err().strip();
            assertThat(line).as(command.err()).contains("; the server sent no reply", " (cause: ");
            assertThat(error).as("the command line's explanation").contains(line.substring(
                    line.indexOf("; the server sent no reply"), line.indexOf(" (cause: ")));
            assertThat(page).doesNotContain("u1@example.com", "idem:", "\tat ", "Exception", "postgres@", "SELECT");
        }
    }

    @Test
    void anotherHostNameIsRefusedUnlessItIsAnAllowedHost() throws Exception {
        int port = URI.create(base).getPort();
        assertThat(rawStatus("evil.example:" + port, null)).isEqualTo(403);
        assertThat(rawStatus("console.example.com", null)).isEqualTo(403);
        assertThat(rawStatus("127.0.0.1:" + port, null)).isEqualTo(401);

        stopServe();
        launch("--allowed-host", "console.example.com");
        port = URI.create(base).getPort();
        // The name a proxy sends, with the origin its TLS gives the browser; nothing else is added.
        assertThat(rawStatus("console.example.com", "https://console.example.com")).isEqualTo(401);
        assertThat(rawStatus("console.example.com", "https://evil.example")).isEqualTo(403);
        assertThat(rawStatus("evil.example:" + port, null)).isEqualTo(403);
    }

    /** The status of a GET of the queue page sent with exactly this {@code Host} (and {@code Origin}). */
    private int rawStatus(String host, String origin) throws Exception {
        URI uri = URI.create(base);
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            socket.setSoTimeout(30_000);
            String request = "GET / HTTP/1.1\r\nHost: " + host + "\r\n" + (origin == null ? "" : "Origin: " + origin
                    + "\r\n") + "Connection: close\r\n\r\n";
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            String status = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.US_ASCII)).readLine();
            assertThat(status).startsWith("HTTP/1.1 ");
            return Integer.parseInt(status.substring(9, 12));
        }
    }

    @Test
    void fourHalfOpenConnectionsDoNotLockTheConsole() throws Exception {
        logIn(browser, token);
        URI uri = URI.create(base);
        List<Socket> stalled = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                Socket socket = new Socket(uri.getHost(), uri.getPort());
                // A partial request line, and then nothing: each holds a request the server has started reading.
                socket.getOutputStream().write("GET /operation?tool=".getBytes(StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
                stalled.add(socket);
            }
            browser.getOptions().setTimeout(5_000);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            Page queue = null;
            while (queue == null && System.nanoTime() < deadline) {
                try {
                    queue = browser.getPage(base);
                } catch (java.io.IOException timedOut) {
                    // still locked: ask again until the deadline
                }
            }
            assertThat(queue).as("the queue page while four connections stall").isNotNull();
            assertThat(queue.getWebResponse().getStatusCode()).isEqualTo(200);
            assertThat(queue.getWebResponse().getContentAsString()).contains(LOST_EMAIL);
        } finally {
            for (Socket socket : stalled) {
                socket.close();
            }
        }
    }

    @Test
    void wrongTokensAreRateLimitedAndLoggedWithoutTheToken() throws Exception {
        for (int i = 0; i < 5; i++) {
            assertThat(logIn(browser, "guess-" + i + "-abcdefghijklmnopqrstuvwxyz").getWebResponse().getStatusCode())
                    .isEqualTo(401);
        }
        // The address is refused for a while: a further wrong token is not even checked.
        HtmlPage locked = logIn(browser, "guess-5-abcdefghijklmnopqrstuvwxyz");
        assertThat(locked.getWebResponse().getStatusCode()).isEqualTo(429);
        assertThat(locked.asNormalizedText()).contains("too many wrong tokens").doesNotContain(LOST_EMAIL);
        assertThat(browser.getPage(base).getWebResponse().getStatusCode()).isEqualTo(401);

        String all = Files.readString(log, StandardCharsets.UTF_8);
        // After the start lines, where serve prints the token it generated for the operator.
        String logged = all.substring(all.indexOf("Stop with Ctrl-C."));
        assertThat(logged).contains("WARNING", "wrong console token from 127.0.0.1")
                .doesNotContain("guess-", token);
    }

    /**
     * Issue 48: every local account reaches the console from 127.0.0.1, so wrong tokens from
     * another account must not lock the operator out: not at the login, not inside a session the
     * operator already holds.
     */
    @Test
    void wrongTokensFromAnotherClientDoNotLockTheOperatorOut() throws Exception {
        HtmlPage before = logIn(browser, token);
        assertThat(before.getWebResponse().getStatusCode()).isEqualTo(200);
        try (WebClient attacker = newBrowser()) {
            for (int i = 0; i < 7; i++) {
                assertThat(logIn(attacker, "guess-" + i + "-abcdefghijklmnopqrstuvwxyz").getWebResponse()
                        .getStatusCode()).isIn(401, 429);
            }
            assertThat(logIn(attacker, "guess-x-abcdefghijklmnopqrstuvwxyz").getWebResponse().getStatusCode())
                    .isEqualTo(429);
        }
        // Inside the session the operator already holds: a review with the token goes through.
        HtmlPage operation = browser.getPage(base + ConsolePages.operationLink(EMAIL, UNSENT_EMAIL).substring(1));
        assertThat(operation.getWebResponse().getStatusCode()).isEqualTo(200);
        HtmlForm form = operation.getHtmlElementById("settle-not-applied");
        form.getInputByName("reason").setValue("the provider has no message");
        form.getInputByName("operator").setValue("alice");
        form.getInputByName("token").setValue(token);
        HtmlPage review = form.getButtonByName("review").click();
        assertThat(review.getWebResponse().getStatusCode()).as(review.asNormalizedText()).isEqualTo(200);
        assertThat(review.asNormalizedText()).contains("Confirm the settlement");

        // A new login with the operator's token, from a new browser on the same address: accepted.
        try (WebClient operator = newBrowser()) {
            HtmlPage queue = logIn(operator, token);
            assertThat(queue.getWebResponse().getStatusCode()).as(queue.asNormalizedText()).isEqualTo(200);
            assertThat(queue.asNormalizedText()).contains(LOST_EMAIL);
        }
    }

    /**
     * Issue 48: half-sent requests cannot take every worker. Eight connections that each sent
     * part of a request line are held open (one the server closed is opened again) while the
     * operator asks for the login page three times: each answer comes within a second.
     */
    @Test
    void eightHalfSentRequestsDoNotDelayTheOperatorsLoginPage() throws Exception {
        URI uri = URI.create(base);
        assertThat(loginPageStatus(uri)).isEqualTo(200); // warm: the first answer loads classes
        List<Socket> stalled = new java.util.ArrayList<>();
        try {
            for (int round = 0; round < 3; round++) {
                holdHalfSent(uri, stalled, 8);
                long started = System.nanoTime();
                String answer;
                try {
                    answer = "status " + loginPageStatus(uri);
                } catch (java.io.IOException noAnswer) {
                    answer = noAnswer.toString();
                }
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                assertThat(answer).as("the login page while eight requests are half-sent, round " + round)
                        .isEqualTo("status 200");
                assertThat(millis).as("ms for the login page while eight requests are half-sent, round " + round)
                        .isLessThan(1_000);
            }
        } finally {
            for (Socket socket : stalled) {
                socket.close();
            }
        }
    }

    /** Keeps {@code count} connections open, each having sent part of a request line; reopens closed ones. */
    private static void holdHalfSent(URI uri, List<Socket> stalled, int count) throws Exception {
        stalled.removeIf(socket -> {
            try {
                socket.setSoTimeout(1);
                socket.getInputStream().read(); // an answer or the end: the server let go of it
            } catch (java.net.SocketTimeoutException stillOpen) {
                return false;
            } catch (java.io.IOException closed) {
                // closed by the server: replaced below
            }
            try {
                socket.close();
            } catch (java.io.IOException ignored) {
                // it is gone either way
            }
            return true;
        });
        while (stalled.size() < count) {
            Socket socket = new Socket(uri.getHost(), uri.getPort());
            socket.getOutputStream().write("GET /operation?tool=".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            stalled.add(socket);
        }
    }

    /** The status of {@code GET /login}, read from a raw socket with a 30 s limit. */
    private static int loginPageStatus(URI uri) throws Exception {
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            socket.setSoTimeout(30_000);
            String request = "GET /login HTTP/1.1\r\nHost: " + uri.getAuthority() + "\r\nConnection: close\r\n\r\n";
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            String status = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.US_ASCII)).readLine();
            assertThat(status).startsWith("HTTP/1.1 ");
            return Integer.parseInt(status.substring(9, 12));
        }
    }

    @Test
    void anOperatorNameWithAControlCharacterOrTooLongIsRefusedAndChangesNothing() throws Exception {
        logIn(browser, token);
        for (String operator : List.of("al\u001b[2Jice", "a".repeat(101))) {
            HtmlPage operation = browser.getPage(base + ConsolePages.operationLink(EMAIL, UNSENT_EMAIL).substring(1));
            HtmlForm form = operation.getHtmlElementById("settle-not-applied");
            form.getInputByName("reason").setValue("the provider has no message");
            form.getInputByName("operator").setValue(operator);
            form.getInputByName("token").setValue(token);
            HtmlPage refused = form.getButtonByName("review").click();
            assertThat(refused.getWebResponse().getStatusCode()).as(operator).isEqualTo(409);
            assertThat(refused.asNormalizedText()).contains("the operator's name");
        }
        assertThat(read(UNSENT_EMAIL).status()).isEqualTo(OperationStatus.NEEDS_RECONCILIATION);
    }

    @Test
    void theSessionCookieIsHttpOnlyStrictAndHoldsARandomIdNotTheToken() throws Exception {
        WebRequest login = new WebRequest(new URL(base + "login"), HttpMethod.POST);
        login.setRequestParameters(List.of(new NameValuePair("token", token)));
        browser.getOptions().setRedirectEnabled(false);
        Page answer = browser.getPage(login);
        assertThat(answer.getWebResponse().getStatusCode()).isEqualTo(303);
        // Issue 48: a redirect carries the same security headers as a page.
        for (String[] header : List.of(new String[] {"X-Frame-Options", "DENY"},
                new String[] {"X-Content-Type-Options", "nosniff"}, new String[] {"Referrer-Policy", "no-referrer"},
                new String[] {"Cache-Control", "no-store"})) {
            assertThat(answer.getWebResponse().getResponseHeaderValue(header[0])).as(header[0]).isEqualTo(header[1]);
        }
        assertThat(answer.getWebResponse().getResponseHeaderValue("Content-Security-Policy"))
                .contains("frame-ancestors 'none'");
        String cookie = answer.getWebResponse().getResponseHeaderValue("Set-Cookie");
        assertThat(cookie).contains("HttpOnly", "SameSite=Strict", "Path=/", "Max-Age=").doesNotContain(token);
        assertThat(answer.getWebResponse().getResponseHeaderValue("Location")).isEqualTo("/");

        // The login goes back to the page that asked for it, and never to another site.
        String operation = ConsolePages.operationLink(EMAIL, LOST_EMAIL);
        for (String[] next : List.of(new String[] {operation, operation}, new String[] {"//evil.example/", "/"},
                new String[] {"https://evil.example/", "/"}, new String[] {"/\\evil.example", "/"})) {
            WebRequest again = new WebRequest(new URL(base + "login"), HttpMethod.POST);
            again.setRequestParameters(List.of(new NameValuePair("token", token), new NameValuePair("next", next[0])));
            Page back = browser.getPage(again);
            assertThat(back.getWebResponse().getStatusCode()).isEqualTo(303);
            assertThat(back.getWebResponse().getResponseHeaderValue("Location")).as(next[0]).isEqualTo(next[1]);
        }
    }

    @Test
    void anOperationPageShowsOnePageOfTheAttemptLogWithNextAndPreviousLinks() throws Exception {
        ExampleRecords.replayCompletedRefund(store.url(), store.user(), store.password(), 249);
        logIn(browser, token);
        HtmlPage first = browser.getPage(base + ConsolePages.operationLink(REFUND, COMPLETED_REFUND).substring(1));
        assertThat(first.getWebResponse().getStatusCode()).isEqualTo(200);
        assertThat(first.asNormalizedText()).contains("Attempts 1 to 100 of 250, oldest first");
        assertThat(first.getHtmlElementById("attempts").getElementsByTagName("tr")).hasSize(101);
        assertThat(first.getAnchors()).extracting(HtmlAnchor::getTextContent).doesNotContain("Previous page");

        HtmlPage second = first.getAnchorByText("Next page").click();
        assertThat(second.getUrl().toString()).contains("page=2").doesNotContain(token);
        assertThat(second.asNormalizedText()).contains("Attempts 101 to 200 of 250, oldest first");
        HtmlPage third = second.getAnchorByText("Next page").click();
        assertThat(third.asNormalizedText()).contains("Attempts 201 to 250 of 250, oldest first");
        assertThat(third.getHtmlElementById("attempts").getElementsByTagName("tr")).hasSize(51);
        assertThat(third.getAnchors()).extracting(HtmlAnchor::getTextContent).doesNotContain("Next page");
        HtmlPage back = third.getAnchorByText("Previous page").click();
        assertThat(back.asNormalizedText()).contains("Attempts 101 to 200 of 250");

        for (String bad : List.of("0", "-1", "two", "99999999999")) {
            Page refused = browser.getPage(base + ConsolePages.operationLink(REFUND, COMPLETED_REFUND).substring(1)
                    + "&page=" + bad);
            assertThat(refused.getWebResponse().getStatusCode()).as(bad).isEqualTo(400);
            assertThat(refused.getWebResponse().getContentAsString()).contains("the page must be a whole number from 1");
        }
    }

    @Test
    void theOutboxPageListsTheUndeliveredMessagesWithoutTheirText() throws Exception {
        try (IdempotentRuntime runtime = IdempotentRuntime.builder()
                .store("default", store.url(), store.user(), store.password()).build()) {
            runtime.call(OutboxIT.LEDGER, "ledger:inv_9", Map.of("invoiceId", "inv_9"), String.class, () -> {
                io.idempotent.runtime.OperationContext.current().send("billing-events", "{\"secret\":\"s3cr3t\"}");
                return "booked";
            });
        }
        assertThat(browser.getPage(base + "outbox").getWebResponse().getStatusCode()).isEqualTo(401);

        HtmlPage index = logIn(browser, token);
        HtmlPage outbox = index.getAnchorByText("outbox").click();
        assertThat(outbox.getHtmlElementById("outbox-counts").asNormalizedText())
                .isEqualTo("1 pending, 0 awaiting reconciliation, 0 delivered");
        assertThat(outbox.getHtmlElementById("outbox").getElementsByTagName("tr")).hasSize(2);
        assertThat(outbox.asNormalizedText()).contains("ledger:inv_9", "billing-events", "pending")
                .doesNotContain("s3cr3t");
    }

    @Test
    void anOperatorSettlesFromTheQueueAndTheOperationLeavesIt() throws Exception {
        logIn(browser, token);
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
        assertThat(Files.readString(log, StandardCharsets.UTF_8)).contains("INFO: settled " + EMAIL + " "
                + UNSENT_EMAIL + " as not applied by alice (console)");

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
        logIn(browser, token);
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
        logIn(browser, token);
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

    @Test
    void anOperatorApprovesFromTheApprovalQueueOnceWithTheToken() throws Exception {
        ApprovalRecords records = new ApprovalRecords(store);
        records.request("inv_10", "inv_11");
        String key = ApprovalRecords.key("inv_10");
        // Without a login, the queue and its payloads are refused.
        Page anonymous = browser.getPage(base + "approvals");
        assertThat(anonymous.getWebResponse().getStatusCode()).isEqualTo(401);
        assertThat(anonymous.getWebResponse().getContentAsString()).doesNotContain(key, "90000");

        HtmlPage index = logIn(browser, token);
        assertThat(index.asNormalizedText()).contains("2 operation(s) await approval");
        HtmlPage queue = index.getAnchorByText("Approval queue").click();
        assertThat(queue.getWebResponse().getStatusCode()).isEqualTo(200);
        String hash = readApproval(key).payloadHash();
        assertThat(queue.asNormalizedText()).contains("1 to 2 of 2, the oldest request first", key,
                ApprovalRecords.key("inv_11"), "\"amountCents\":90000", hash, "approval-inv_10");

        HtmlPage operation = queue.getAnchorByText(key).click();
        assertThat(operation.asNormalizedText()).contains("awaiting_approval", "APPROVAL_REQUESTED", "90000");
        // The review needs the token as well as the session.
        HtmlForm form = operation.getHtmlElementById("grant");
        form.getInputByName("reason").setValue("confirmed with the customer");
        form.getInputByName("operator").setValue("alice");
        Page noToken = form.getButtonByName("review").click();
        assertThat(noToken.getWebResponse().getStatusCode()).isEqualTo(403);

        operation = browser.getPage(base + ConsolePages.operationLink(ApprovalRecords.TOOL, key).substring(1));
        form = operation.getHtmlElementById("grant");
        form.getInputByName("reason").setValue("confirmed with the customer");
        form.getInputByName("operator").setValue("alice");
        form.getInputByName("token").setValue(token);
        HtmlPage confirm = form.getButtonByName("review").click();
        assertThat(confirm.asNormalizedText()).contains("Confirm the decision", "Approve", key, "90000", hash,
                "alice", "confirmed with the customer");
        // Reviewing changed nothing yet.
        assertThat(readApproval(key).status()).isEqualTo(OperationStatus.AWAITING_APPROVAL);

        HtmlForm confirmation = confirm.getHtmlElementById("confirm");
        HtmlPage approved = confirmation.getButtonByName("confirm").click();
        assertThat(approved.asNormalizedText()).contains("Approved.", "approved", "APPROVAL_GRANTED",
                "granted by alice: confirmed with the customer");
        assertThat(Files.readString(log, StandardCharsets.UTF_8)).contains("INFO: granted " + ApprovalRecords.TOOL
                + " " + key + " by alice (console)");

        // The same confirmation cannot be replayed: one decision is recorded.
        Page replayed = post("/approval", List.of(new NameValuePair("csrf", confirmation.getInputByName("csrf")
                .getValue()), new NameValuePair("confirmation", confirmation.getInputByName("confirmation")
                .getValue())), null);
        assertThat(replayed.getWebResponse().getStatusCode()).isEqualTo(409);
        OperationRecord op = readApproval(key);
        assertThat(op.status()).isEqualTo(OperationStatus.APPROVED);
        assertThat(op.attemptLog().stream().filter(a -> a.outcome() == AttemptOutcome.APPROVAL_GRANTED)).hasSize(1);

        HtmlPage after = browser.getPage(base + "approvals");
        assertThat(after.asNormalizedText()).contains(ApprovalRecords.key("inv_11")).doesNotContain(key);
        assertThat(records.callAgain("inv_10", 90_000L)).isEqualTo("re_inv_10");
        assertThat(records.effects.get()).isEqualTo(1);
    }

    @Test
    void aDecisionOnAPayloadThatIsNotTheStoredOneIsRefusedAndChangesNothing() throws Exception {
        new ApprovalRecords(store).request("inv_10");
        String key = ApprovalRecords.key("inv_10");
        logIn(browser, token);
        HtmlPage operation = browser.getPage(base + ConsolePages.operationLink(ApprovalRecords.TOOL, key).substring(1));
        HtmlForm form = operation.getHtmlElementById("deny");
        String stale = "0".repeat(64);
        Page refused = post("/approval/confirm", List.of(new NameValuePair("csrf", form.getInputByName("csrf")
                .getValue()), new NameValuePair("tool", ApprovalRecords.TOOL), new NameValuePair("key", key),
                new NameValuePair("payloadHash", stale), new NameValuePair("decision", "deny"),
                new NameValuePair("operator", "mallory"), new NameValuePair("token", token)), null);
        assertThat(refused.getWebResponse().getStatusCode()).isEqualTo(409);
        assertThat(refused.getWebResponse().getContentAsString()).contains("is not the one on the page you decided"
                + " from").doesNotContain("90000");
        OperationRecord op = readApproval(key);
        assertThat(op.status()).isEqualTo(OperationStatus.AWAITING_APPROVAL);
        assertThat(op.attemptLog()).extracting(AttemptRecord::outcome).doesNotContain(AttemptOutcome.APPROVAL_DENIED);
    }

    /**
     * Issue 48: a payload with tag characters and a right-to-left override is shown escaped on the
     * approval queue and on the operation's page, the same escapes as the command line's, and each
     * stored value sits in its own left-to-right isolate, so no stored text reorders the page.
     */
    @Test
    void invisibleAndReorderingCharactersOfAPayloadAreEscapedAndIsolatedOnBothPages() throws Exception {
        Map<String, Object> payload = ApprovalRecords.payload("inv_20", 90_000L);
        payload.put("note", ApprovalRecords.HIDDEN_NOTE);
        new ApprovalRecords(store).request("inv_20", payload);
        String key = ApprovalRecords.key("inv_20");
        logIn(browser, token);
        for (String page : List.of("approvals", ConsolePages.operationLink(ApprovalRecords.TOOL, key).substring(1))) {
            HtmlPage shown = browser.getPage(base + page);
            assertThat(shown.getWebResponse().getStatusCode()).as(page).isEqualTo(200);
            String html = shown.getWebResponse().getContentAsString();
            assertThat(html).as(page).contains(ApprovalRecords.SHOWN_TAGS, ApprovalRecords.SHOWN_OVERRIDE)
                    .doesNotContain(ApprovalRecords.RAW_HIDDEN);
            List<String> isolated = shown.<org.htmlunit.html.DomElement>getByXPath("//bdi[@dir='ltr']").stream()
                    .map(org.htmlunit.html.DomElement::getTextContent).toList();
            assertThat(isolated).as(page).anySatisfy(value -> assertThat(value).contains(ApprovalRecords.SHOWN_TAGS,
                    ApprovalRecords.SHOWN_OVERRIDE)).anySatisfy(value -> assertThat(value).isEqualTo(key));
        }
    }

    private OperationRecord readApproval(String key) {
        try (IdempotentRuntime runtime = IdempotentRuntime.builder()
                .store("default", store.url(), store.user(), store.password()).build()) {
            return runtime.operations().find("default", ApprovalRecords.TOOL, key).orElseThrow();
        }
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
