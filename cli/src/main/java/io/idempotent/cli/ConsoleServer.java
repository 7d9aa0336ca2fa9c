package io.idempotent.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.idempotent.runtime.Approvals;
import io.idempotent.runtime.AttemptPage;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.Operations;
import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.StoreUnavailableException;
import io.idempotent.runtime.internal.RuntimeAccess;
import io.idempotent.runtime.internal.store.OperationStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Type;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * The operator's web console: the reconciliation queue, the approval queue, one page per operation
 * with its incident review, and the forms that settle an uncertain operation or approve or deny
 * one that awaits approval. Server-rendered HTML, no scripts.
 *
 * <p>Every page needs a session: the login form takes the console token (printed by {@code serve}
 * or taken from {@code IDEMPOTENT_CONSOLE_TOKEN}) in a POST body, never in a URL, and answers with
 * an HttpOnly, SameSite=Strict cookie that holds a random session id ({@link ConsoleSessions}).
 * A settlement or an approval decision needs more than a session: the token again, the session's
 * anti-forgery value (only readable by a same-origin page), and a second, confirming request from
 * the same session that carries the single-use id of the reviewed decision
 * ({@link ConsoleConfirmations}). Requests from another origin
 * ({@code Origin} or {@code Sec-Fetch-Site}) and requests for a host name that is not the
 * console's own or one of {@code --allowed-host} (DNS rebinding) are refused before anything is
 * read.
 */
final class ConsoleServer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ConsoleServer.class.getName());
    private static final int MAX_BODY = 1 << 20;
    private static final int QUEUE_LIMIT = 500;
    /** Undelivered outbox messages the outbox page lists, the oldest first. */
    static final int OUTBOX_LIMIT = 500;
    /** Approval requests per page of the approval queue. */
    static final int APPROVALS_PAGE = 100;
    private static final String CHANNEL = "console";
    private static final String TOO_MANY = "too many wrong tokens from this address, and this one is wrong too: use"
            + " the token serve printed (or IDEMPOTENT_CONSOLE_TOKEN)";
    /**
     * The most requests the console works on at once. The JDK's server reads a request's line and
     * headers on the worker that then answers it, so a client that sends half a request holds a
     * worker until {@link #MAX_REQUEST_SECONDS}: with the four workers of old, four such clients
     * (and every local account can be one) kept the operator waiting up to that long. A worker is
     * started for each request up to this many and ends after {@link #IDLE_WORKER}, so stalled
     * requests take only their own workers, and a local account needs this many connections at
     * once, each sending again every {@link #MAX_REQUEST_SECONDS}, to make the operator wait.
     */
    static final int MAX_WORKERS = 64;
    private static final Duration IDLE_WORKER = Duration.ofSeconds(30);
    /**
     * How long the JDK's server may take to read one request (line, headers and body), and to
     * answer it, in seconds. It reads a request on the worker that answers it, so without a bound
     * a client that sends half a request line and stops holds that worker forever. With it, the
     * server's timer closes such a connection, which frees the worker ({@link #MAX_WORKERS} says
     * why the others stay free meanwhile). These are the JDK's own settings
     * ({@code sun.net.httpserver.maxReqTime}, {@code maxRspTime}), read once when its server class
     * loads, so they are set before the first server is created, and only when the operator did
     * not set them.
     */
    static final long MAX_REQUEST_SECONDS = 10;
    static final long MAX_RESPONSE_SECONDS = 60;

    static {
        setUnlessGiven("sun.net.httpserver.maxReqTime", MAX_REQUEST_SECONDS);
        setUnlessGiven("sun.net.httpserver.maxRspTime", MAX_RESPONSE_SECONDS);
    }

    /** Where the login form may send the browser back to: a queue or an operation's page, nothing else. */
    private static final Pattern NEXT = Pattern.compile("/((operation|approvals)(\\?[A-Za-z0-9%._~+=&-]*)?)?");

    /** The last page of an attempt log the console shows: its offset must fit an int. */
    private static final int LAST_ATTEMPT_PAGE = Integer.MAX_VALUE / AttemptPage.FIRST_PAGE + 1;

    private final Operations operations;
    private final Approvals approvals;
    private final io.idempotent.runtime.Outbox outbox;
    /** The store's own records, for its verdict on whether an operation awaits a decision. */
    private final OperationStore records;
    private final String store;
    private final UnaryOperator<StoreUnavailableException> explain;
    private final ToolCatalog catalog;
    private final ConsoleToken token;
    private final Set<String> allowedHosts;
    private final HttpServer server;
    private final ExecutorService executor = workers();
    private final ConsoleSessions sessions = new ConsoleSessions();
    private final ConsoleConfirmations confirmations = new ConsoleConfirmations();

    /**
     * @param runtime the runtime on the store, which the caller closes after the console
     * @param store the store's name
     * @param explain a store failure as the command line explains it ({@link StoreOptions#explained})
     * @param catalog the application's tools, to check applied results; null disables settling as applied
     * @param token the console token
     * @param allowedHosts further {@code Host} header values to answer (a proxy's public name), lower case
     */
    ConsoleServer(IdempotentRuntime runtime, String store, UnaryOperator<StoreUnavailableException> explain,
            ToolCatalog catalog, String token, InetSocketAddress address, Set<String> allowedHosts)
            throws IOException {
        this.operations = runtime.operations();
        this.approvals = runtime.approvals();
        this.outbox = runtime.outbox();
        this.records = RuntimeAccess.engine(runtime).stores().get(store, "operator");
        this.store = store;
        this.explain = explain;
        this.catalog = catalog;
        this.token = new ConsoleToken(token);
        this.allowedHosts = Set.copyOf(allowedHosts);
        this.server = HttpServer.create(address, 16);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
    }

    void start() {
        server.start();
    }

    /** {@link #MAX_WORKERS} daemon workers, started as requests come and ended when idle; requests beyond them wait. */
    private static ExecutorService workers() {
        AtomicInteger number = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(MAX_WORKERS, MAX_WORKERS, IDLE_WORKER.toMillis(),
                TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), task -> {
                    Thread thread = new Thread(task, "idempotent-console-" + number.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** Where the console answers. */
    URI uri() {
        InetSocketAddress address = server.getAddress();
        String host = address.getAddress().getHostAddress();
        return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + address.getPort() + "/");
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try {
            route(exchange);
        } catch (RefusedException | IllegalStateException | IllegalArgumentException e) {
            send(exchange, 409, ConsolePages.error(e.getMessage()));
        } catch (StoreUnavailableException | StoreConfigurationException e) {
            // The command line's line for it, from the same code: the store, the setting, what to do.
            String line = ErrorLine.of(e instanceof StoreUnavailableException unavailable
                    ? explain.apply(unavailable) : e);
            LOG.log(System.Logger.Level.WARNING, "console request failed: " + line);
            send(exchange, 503, ConsolePages.storeFailure(line));
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "console request failed: " + e.getClass().getName());
            send(exchange, 500, ConsolePages.error("the console could not answer: " + e.getClass().getSimpleName()
                    + " (see the console's output)"));
        } finally {
            exchange.close();
        }
    }

    private void route(HttpExchange exchange) throws IOException {
        if (!sameOrigin(exchange)) {
            send(exchange, 403, ConsolePages.error("this console only answers its own pages (request from"
                    + " another origin or for another host)"));
            return;
        }
        String path = exchange.getRequestURI().getPath();
        String method = exchange.getRequestMethod();
        if (path.equals("/login")) {
            if (method.equals("POST")) {
                logIn(exchange, readForm(exchange));
            } else {
                send(exchange, 200, ConsolePages.login("/", null));
            }
            return;
        }
        Optional<ConsoleSessions.Session> found = sessions.find(exchange.getRequestHeaders().get("Cookie"));
        if (found.isEmpty()) {
            // Nothing of the store is read or shown before a login.
            String query = exchange.getRequestURI().getRawQuery();
            String next = method.equals("GET") ? path + (query == null ? "" : "?" + query) : "/";
            send(exchange, 401, ConsolePages.login(safeNext(next),
                    method.equals("GET") ? null : "your session ended: log in again, then repeat the step"));
            return;
        }
        ConsoleSessions.Session session = found.get();
        if (method.equals("GET") && path.equals("/")) {
            send(exchange, 200, ConsolePages.queue(store, operations.awaitingReconciliation(store, null,
                    Duration.ZERO, QUEUE_LIMIT), pendingApprovals(), Instant.now(), session.csrf()));
        } else if (method.equals("GET") && path.equals("/approvals")) {
            showApprovals(exchange, session, FormData.parse(exchange.getRequestURI().getRawQuery()));
        } else if (method.equals("GET") && path.equals("/outbox")) {
            send(exchange, 200, ConsolePages.outbox(store, outbox.counts(store), outbox.undelivered(store,
                    OUTBOX_LIMIT), Instant.now(), session.csrf()));
        } else if (method.equals("GET") && path.equals("/operation")) {
            showOperation(exchange, session, FormData.parse(exchange.getRequestURI().getRawQuery()));
        } else if (method.equals("POST") && path.equals("/settle/confirm")) {
            review(exchange, session, readForm(exchange));
        } else if (method.equals("POST") && path.equals("/settle")) {
            settle(exchange, session, readForm(exchange));
        } else if (method.equals("POST") && path.equals("/approval/confirm")) {
            reviewDecision(exchange, session, readForm(exchange));
        } else if (method.equals("POST") && path.equals("/approval")) {
            decide(exchange, session, readForm(exchange));
        } else if (method.equals("POST") && path.equals("/logout")) {
            logOut(exchange, session, readForm(exchange));
        } else {
            send(exchange, 404, ConsolePages.error("no such page"));
        }
    }

    /** Checks the token from the login form's body; a right one opens a session and goes back to the page. */
    private void logIn(HttpExchange exchange, FormData form) throws IOException {
        ConsoleToken.Check check = token.check(form.text("token"), address(exchange));
        if (check == ConsoleToken.Check.LOCKED) {
            send(exchange, 429, ConsolePages.login(safeNext(form.text("next")), TOO_MANY));
            return;
        }
        if (check == ConsoleToken.Check.WRONG) {
            send(exchange, 401, ConsolePages.login(safeNext(form.text("next")), "the console token is wrong"));
            return;
        }
        ConsoleSessions.Session session = sessions.open();
        exchange.getResponseHeaders().add("Set-Cookie", ConsoleSessions.setCookie(session));
        redirect(exchange, safeNext(form.text("next")));
    }

    private void logOut(HttpExchange exchange, ConsoleSessions.Session session, FormData form) throws IOException {
        if (!validCsrf(session, form)) {
            send(exchange, 403, ConsolePages.error("the form's anti-forgery value is wrong"));
            return;
        }
        sessions.close(session);
        confirmations.forget(session.id());
        exchange.getResponseHeaders().add("Set-Cookie", ConsoleSessions.clearCookie());
        redirect(exchange, "/login");
    }

    private void showOperation(HttpExchange exchange, ConsoleSessions.Session session, FormData query)
            throws IOException {
        String tool = query.text("tool");
        String key = query.text("key");
        int number = pageNumber(query, LAST_ATTEMPT_PAGE);
        if (number < 1) {
            send(exchange, 400, ConsolePages.error("the page must be a whole number from 1 to " + LAST_ATTEMPT_PAGE));
            return;
        }
        int offset = (number - 1) * AttemptPage.FIRST_PAGE;
        OperationRecord op = operations.find(store, tool, key).orElseThrow(() -> new RefusedException(
                "no operation " + key + " of tool " + tool + " in store " + store));
        String decided = query.get("decided");
        String notice = query.get("settled") != null ? "Settled."
                : "grant".equals(decided) ? "Approved." : "deny".equals(decided) ? "Denied." : null;
        send(exchange, 200, ConsolePages.operation(store, IncidentReview.read(operations, store, op, offset,
                AttemptPage.FIRST_PAGE), session.csrf(), catalog != null,
                ApprovalDecisions.awaitsDecision(records, tool, key), notice));
    }

    /** The approval queue, {@link #APPROVALS_PAGE} requests a page, the oldest first, with their payloads. */
    private void showApprovals(HttpExchange exchange, ConsoleSessions.Session session, FormData query)
            throws IOException {
        int last = Integer.MAX_VALUE / APPROVALS_PAGE;
        int number = pageNumber(query, last);
        if (number < 1) {
            send(exchange, 400, ConsolePages.error("the page must be a whole number from 1 to " + last));
            return;
        }
        long total = pendingApprovals();
        send(exchange, 200, ConsolePages.approvals(store, approvals.pending(store, null,
                (number - 1) * APPROVALS_PAGE, APPROVALS_PAGE), number, total, Instant.now(), session.csrf()));
    }

    private long pendingApprovals() {
        return approvals.countPending(store).values().stream().mapToLong(Long::longValue).sum();
    }

    /** The {@code page} parameter, 1 when absent, 0 when it is not a whole number from 1 to {@code last}. */
    private static int pageNumber(FormData query, int last) {
        String page = query.get("page");
        int number = page == null ? 1 : page.matches("[0-9]{1,9}") ? Integer.parseInt(page) : 0;
        return number > last ? 0 : number;
    }

    /**
     * Whether the form carries the session's anti-forgery value and the console token; when not,
     * answers the refusal (403, or 429 for an address locked out) and nothing else is read.
     */
    private boolean authorized(HttpExchange exchange, ConsoleSessions.Session session, FormData form)
            throws IOException {
        if (!validCsrf(session, form)) {
            send(exchange, 403, ConsolePages.error("the console token or the form's anti-forgery value is wrong"));
            return false;
        }
        ConsoleToken.Check check = token.check(form.text("token"), address(exchange));
        if (check != ConsoleToken.Check.RIGHT) {
            send(exchange, check == ConsoleToken.Check.LOCKED ? 429 : 403, ConsolePages.error(
                    check == ConsoleToken.Check.LOCKED ? TOO_MANY : "the console token or the form's anti-forgery"
                            + " value is wrong"));
            return false;
        }
        return true;
    }

    /** The first step: check everything, then show what would be recorded and ask to confirm. */
    private void review(HttpExchange exchange, ConsoleSessions.Session session, FormData form) throws IOException {
        if (!authorized(exchange, session, form)) {
            return;
        }
        String tool = form.text("tool");
        String key = form.text("key");
        boolean applied = form.text("outcome").equals("applied");
        String operator = OperatorName.require(form.text("operator"));
        Settlements settlements = new Settlements(operations, store, CHANNEL);
        settlements.awaiting(tool, key);
        String result = form.text("result");
        String reason = form.text("reason").strip();
        if (applied) {
            if (catalog == null) {
                throw new RefusedException("start the console with --app-classpath to settle as applied");
            }
            Settlements.fit(tool, catalog.resultType(tool), result);
        } else if (reason.isEmpty()) {
            throw new RefusedException("a settlement as not applied needs a reason (what the downstream showed)");
        }
        PendingSettlement s = new PendingSettlement(tool, key, applied, applied ? result : null,
                applied ? null : reason, operator);
        send(exchange, 200, ConsolePages.confirm(confirmations.hold(session.id(), s), s, session.csrf()));
    }

    /** The second step: carry out exactly the reviewed settlement, once, for the session that reviewed it. */
    private void settle(HttpExchange exchange, ConsoleSessions.Session session, FormData form) throws IOException {
        if (!validCsrf(session, form)) {
            send(exchange, 403, ConsolePages.error("the form's anti-forgery value is wrong"));
            return;
        }
        PendingSettlement s = confirmations.take(form.get("confirmation"), session.id(), PendingSettlement.class);
        Settlements settlements = new Settlements(operations, store, CHANNEL);
        if (s.applied()) {
            Type type = catalog.resultType(s.tool());
            settlements.applied(s.tool(), s.key(), type, s.resultJson(), s.operator());
        } else {
            settlements.notApplied(s.tool(), s.key(), s.reason(), s.operator());
        }
        redirect(exchange, ConsolePages.operationLink(s.tool(), s.key()) + "&settled=1");
    }

    /**
     * The first step of an approval decision: check the operator, the token and that the page's
     * payload hash is still the stored one, then show the payload and what would be recorded and
     * ask to confirm.
     */
    private void reviewDecision(HttpExchange exchange, ConsoleSessions.Session session, FormData form)
            throws IOException {
        if (!authorized(exchange, session, form)) {
            return;
        }
        String tool = form.text("tool");
        String key = form.text("key");
        ApprovalDecisions.Decision decision = switch (form.text("decision")) {
            case "grant" -> ApprovalDecisions.Decision.GRANT;
            case "deny" -> ApprovalDecisions.Decision.DENY;
            default -> throw new RefusedException("the decision must be grant or deny");
        };
        String operator = OperatorName.require(form.text("operator"));
        String hash = form.text("payloadHash");
        OperationRecord op = operations.find(store, tool, key).orElseThrow(() -> new RefusedException(
                "no operation " + key + " of tool " + tool + " in store " + store));
        if (!ApprovalDecisions.awaitsDecision(records, tool, key)) {
            throw new RefusedException("operation " + key + " of tool " + tool + " is " + op.status().column()
                    + ": it does not await approval (someone may have decided it already)");
        }
        if (!op.payloadHash().equals(hash)) {
            throw new RefusedException("the payload of operation " + key + " of tool " + tool + " is not the one on"
                    + " the page you decided from: open the approval queue again");
        }
        String reason = form.text("reason").strip();
        PendingDecision d = new PendingDecision(tool, key, decision, hash, operator, reason.isEmpty() ? null : reason);
        send(exchange, 200, ConsolePages.confirmDecision(confirmations.hold(session.id(), d), d, op.payload(),
                session.csrf()));
    }

    /** The second step: record exactly the reviewed decision, once, for the session that reviewed it. */
    private void decide(HttpExchange exchange, ConsoleSessions.Session session, FormData form) throws IOException {
        if (!validCsrf(session, form)) {
            send(exchange, 403, ConsolePages.error("the form's anti-forgery value is wrong"));
            return;
        }
        PendingDecision d = confirmations.take(form.get("confirmation"), session.id(), PendingDecision.class);
        new ApprovalDecisions(approvals, store, CHANNEL).decide(d.decision(), d.tool(), d.key(), d.payloadHash(),
                d.operator(), d.reason());
        redirect(exchange, ConsolePages.operationLink(d.tool(), d.key()) + "&decided="
                + (d.decision() == ApprovalDecisions.Decision.GRANT ? "grant" : "deny"));
    }

    private boolean sameOrigin(HttpExchange exchange) {
        String host = exchange.getRequestHeaders().getFirst("Host");
        String own = uri().getAuthority();
        int port = server.getAddress().getPort();
        boolean named = host != null && allowedHosts.contains(host.toLowerCase(Locale.ROOT));
        boolean hostOk = named || host != null && (host.equals(own) || host.equals("localhost:" + port)
                || host.equals("127.0.0.1:" + port));
        String origin = exchange.getRequestHeaders().getFirst("Origin");
        // Behind a TLS proxy the browser's origin is https on the proxy's name.
        boolean originOk = origin == null || origin.equals("http://" + host)
                || named && origin.equals("https://" + host);
        String site = exchange.getRequestHeaders().getFirst("Sec-Fetch-Site");
        boolean siteOk = site == null || site.equals("same-origin") || site.equals("none");
        return hostOk && originOk && siteOk;
    }

    /** {@code next} if it is the queue or an operation's page, else the queue: never another site. */
    private static String safeNext(String next) {
        return NEXT.matcher(next).matches() ? next : "/";
    }

    private static String address(HttpExchange exchange) {
        return exchange.getRemoteAddress().getAddress().getHostAddress();
    }

    private static boolean validCsrf(ConsoleSessions.Session session, FormData form) {
        return MessageDigest.isEqual(session.csrf().getBytes(StandardCharsets.UTF_8),
                form.text("csrf").getBytes(StandardCharsets.UTF_8));
    }
    private static void setUnlessGiven(String property, long seconds) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, Long.toString(seconds));
        }
    }

    private static FormData readForm(HttpExchange exchange) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            byte[] body = in.readNBytes(MAX_BODY + 1);
            if (body.length > MAX_BODY) {
                throw new RefusedException("the form is larger than " + MAX_BODY + " bytes");
            }
            return FormData.parse(new String(body, StandardCharsets.US_ASCII));
        }
    }

    private static void send(HttpExchange exchange, int status, String html) throws IOException {
        byte[] bytes = html.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
        secure(exchange);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** A 303 to {@code location} (a path of this console), with the same security headers as a page. */
    private static void redirect(HttpExchange exchange, String location) throws IOException {
        exchange.getResponseHeaders().set("Location", location);
        secure(exchange);
        exchange.sendResponseHeaders(303, -1);
    }

    /** The headers every answer carries: not cached, not sniffed, not framed, no referrer, nothing loaded. */
    private static void secure(HttpExchange exchange) {
        var headers = exchange.getResponseHeaders();
        headers.set("Cache-Control", "no-store");
        headers.set("X-Content-Type-Options", "nosniff");
        headers.set("Referrer-Policy", "no-referrer");
        headers.set("X-Frame-Options", "DENY");
        headers.set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self';"
                + " frame-ancestors 'none'");
    }
}
