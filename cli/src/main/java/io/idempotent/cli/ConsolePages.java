package io.idempotent.cli;

import static io.idempotent.cli.Html.attribute;
import static io.idempotent.cli.Html.text;

import io.idempotent.runtime.AttemptPage;
import io.idempotent.runtime.AttemptRecord;
import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.PendingApproval;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The console's pages, rendered on the server; no scripts. */
final class ConsolePages {

    private ConsolePages() {
    }

    static String operationLink(String tool, String key) {
        return "/operation?tool=" + URLEncoder.encode(tool, StandardCharsets.UTF_8) + "&key="
                + URLEncoder.encode(key, StandardCharsets.UTF_8);
    }

    /**
     * The login form. The token goes in the POST body (never a URL: URLs end up in histories, logs
     * and referrers); {@code next} is where the browser goes back to after a login.
     */
    static String login(String next, String message) {
        StringBuilder body = new StringBuilder("<h1>Log in</h1>");
        if (message != null) {
            body.append("<p class=\"error\" id=\"error\">").append(text(message)).append("</p>");
        }
        body.append("<form method=\"post\" action=\"/login\" id=\"login\">")
                .append("<input type=\"hidden\" name=\"next\" value=\"")
                .append(attribute(next)).append("\"><label for=\"token\">Console token (printed by <code>serve</code>, or")
                .append(" <code>IDEMPOTENT_CONSOLE_TOKEN</code>)</label><input type=\"password\" id=\"token\"")
                .append(" name=\"token\" autocomplete=\"off\"><p><button type=\"submit\" name=\"login\" value=\"1\">")
                .append("Log in</button></p></form>");
        return Html.page("Log in", body.toString());
    }

    /** Ends the session; on every page of a logged-in operator. */
    private static String logout(String csrf) {
        return "<form method=\"post\" action=\"/logout\" id=\"logout\"><input type=\"hidden\" name=\"csrf\" value=\""
                + attribute(csrf) + "\"><button type=\"submit\" name=\"logout\" value=\"1\">Log out</button></form>";
    }

    /** The index: the reconciliation queue, and how many operations await approval, with the way there. */
    static String queue(String store, List<OperationRecord> pending, long awaitingApproval, Instant now, String csrf) {
        StringBuilder body = new StringBuilder(logout(csrf) + "<h1>Reconciliation queue</h1><p>Store <code>"
                + text(store)
                + "</code>. These operations may or may not have had their effect; each waits for a person to"
                + " check the downstream and settle it.</p>");
        if (awaitingApproval > 0) {
            body.append("<p class=\"notice\" id=\"awaiting-approval\">").append(awaitingApproval)
                    .append(" operation(s) await approval: see the <a href=\"/approvals\">approval queue</a>.</p>");
        }
        body.append("<p id=\"outbox-link\">Messages not delivered yet: the <a href=\"/outbox\">outbox</a>.</p>");
        if (pending.isEmpty()) {
            body.append("<p id=\"empty\">No operation awaits reconciliation.</p>");
            return Html.page("Reconciliation queue", body.toString());
        }
        Map<String, StringBuilder> byTool = new LinkedHashMap<>();
        for (OperationRecord op : pending) {
            byTool.computeIfAbsent(op.tool(), t -> new StringBuilder()).append("<tr><td><a href=\"")
                    .append(attribute(operationLink(op.tool(), op.key()))).append("\">").append(text(op.key()))
                    .append("</a></td><td>").append(text(op.updatedAt())).append("</td><td>")
                    .append(text(IncidentReview.age(op.updatedAt(), now))).append("</td><td>")
                    .append(op.attempts()).append("</td><td>").append(text(op.downstreamId())).append("</td></tr>");
        }
        byTool.forEach((tool, rows) -> body.append("<h2>").append(text(tool)).append("</h2><table class=\"queue\">")
                .append("<tr><th>key</th><th>waiting since</th><th>waited</th><th>attempts</th>")
                .append("<th>downstream id</th></tr>").append(rows).append("</table>"));
        return Html.page("Reconciliation queue", body.toString());
    }

    /** The page of the attempt log numbered {@code page} (from 1): {@link AttemptPage#FIRST_PAGE} rows each. */
    static String operationLink(String tool, String key, long page) {
        return operationLink(tool, key) + "&page=" + page;
    }

    /**
     * An operation's page: its incident review, the forms that settle it while it awaits
     * reconciliation, and, when {@code awaitsDecision} (the store's verdict,
     * {@link ApprovalDecisions#awaitsDecision}), the forms that approve or deny it.
     */
    static String operation(String store, IncidentReview.Review review, String csrf, boolean canSettleApplied,
            boolean awaitsDecision, String notice) {
        OperationRecord op = review.op();
        AttemptPage page = review.attempts();
        StringBuilder body = new StringBuilder(logout(csrf) + "<h1>" + text(op.tool()) + " <code>" + text(op.key())
                + "</code></h1>");
        if (notice != null) {
            body.append("<p class=\"notice\">").append(text(notice)).append("</p>");
        }
        body.append("<table id=\"facts\">");
        fact(body, "store", store);
        IncidentReview.facts(op).forEach((name, value) -> fact(body, name, value));
        body.append("</table><h2>Attempts</h2><p id=\"attempts-page\">").append(text(IncidentReview.pageTitle(page)))
                .append("</p><table id=\"attempts\"><tr><th>#</th><th>started</th><th>ended</th>")
                .append("<th>outcome</th><th>lease</th><th>downstream id</th><th>detail</th></tr>");
        long n = page.offset() + 1L;
        for (AttemptRecord a : page.attempts()) {
            body.append("<tr><td>").append(n++).append("</td><td>").append(text(a.startedAt())).append("</td><td>")
                    .append(text(a.endedAt())).append("</td><td>").append(text(a.outcome().name())).append("</td><td>")
                    .append(a.leaseToken()).append("</td><td>").append(text(a.downstreamId())).append("</td><td>")
                    .append(text(a.detail())).append("</td></tr>");
        }
        body.append("</table>").append(pageLinks(op, page));
        approval(body, review, csrf, awaitsDecision);
        body.append("<h2>Settlements</h2>");
        List<AttemptRecord> settled = review.settlements().attempts();
        if (review.settlements().hasMore()) {
            body.append("<p>The first ").append(settled.size()).append(" of ").append(review.settlements().total())
                    .append(" settlements.</p>");
        }
        if (settled.isEmpty()) {
            body.append("<p id=\"settlements\">None.</p>");
        } else {
            body.append("<table id=\"settlements\"><tr><th>at</th><th>outcome</th><th>by and why</th></tr>");
            for (AttemptRecord a : settled) {
                body.append("<tr><td>").append(text(a.startedAt())).append("</td><td>").append(text(a.outcome().name()))
                        .append("</td><td>").append(text(a.detail())).append("</td></tr>");
            }
            body.append("</table>");
        }
        if (op.status() == OperationStatus.NEEDS_RECONCILIATION) {
            body.append("<h2>Settle</h2><p>Check the downstream first (downstream id above). A settlement is"
                    + " recorded with your name and cannot be undone here.</p>");
            if (canSettleApplied) {
                body.append(settleForm(op, csrf, "applied", "The effect happened",
                        "<label for=\"result\">Result (JSON, as the tool would have returned it)</label>"
                                + "<textarea id=\"result\" name=\"result\" rows=\"5\"></textarea>"));
            } else {
                body.append("<p>To settle as applied, start the console with <code>--app-classpath</code> so the"
                        + " result can be checked against the tool's return type.</p>");
            }
            body.append(settleForm(op, csrf, "not-applied", "The effect did not happen",
                    "<label for=\"reason\">Reason (what the downstream showed)</label>"
                            + "<input type=\"text\" id=\"reason\" name=\"reason\">"));
        }
        return Html.page(op.tool() + " " + op.key(), body.toString());
    }

    /** Links to the pages of the attempt log before and after {@code page}, where there are any. */
    private static String pageLinks(OperationRecord op, AttemptPage page) {
        long number = page.offset() / AttemptPage.FIRST_PAGE + 1;
        StringBuilder links = new StringBuilder("<p id=\"attempt-pages\">");
        if (number > 1) {
            links.append("<a href=\"").append(attribute(operationLink(op.tool(), op.key(), number - 1)))
                    .append("\">Previous page</a> ");
        }
        if (page.hasMore()) {
            links.append("<a href=\"").append(attribute(operationLink(op.tool(), op.key(), number + 1)))
                    .append("\">Next page</a>");
        }
        return links.append("</p>").toString();
    }

    private static String settleForm(OperationRecord op, String csrf, String outcome, String title, String fields) {
        return "<form method=\"post\" action=\"/settle/confirm\" id=\"settle-" + outcome + "\"><h3>" + text(title)
                + "</h3><input type=\"hidden\" name=\"csrf\" value=\"" + attribute(csrf) + "\">"
                + "<input type=\"hidden\" name=\"tool\" value=\"" + attribute(op.tool()) + "\">"
                + "<input type=\"hidden\" name=\"key\" value=\"" + attribute(op.key()) + "\">"
                + "<input type=\"hidden\" name=\"outcome\" value=\"" + outcome + "\">" + fields
                + "<label for=\"operator-" + outcome + "\">Your name</label><input type=\"text\" id=\"operator-"
                + outcome + "\" name=\"operator\"><label for=\"token-" + outcome + "\">Console token (printed by"
                + " <code>serve</code>)</label><input type=\"password\" id=\"token-" + outcome + "\" name=\"token\">"
                + "<p><button type=\"submit\" name=\"review\" value=\"1\">Review settlement</button></p></form>";
    }

    /**
     * The approval section of an operation's page: the request, the decisions with the operator and
     * reason, the expiries, and, while it waits for a decision, the forms to approve or deny it.
     * They carry the payload hash of the payload on this page, so a decision covers what was seen.
     */
    private static void approval(StringBuilder body, IncidentReview.Review review, String csrf,
            boolean awaitsDecision) {
        if (!review.hasApproval()) {
            return;
        }
        OperationRecord op = review.op();
        body.append("<h2>Approval</h2>");
        List<AttemptRecord> history = review.approvals().attempts();
        if (review.approvals().hasMore()) {
            body.append("<p>The first ").append(history.size()).append(" of ").append(review.approvals().total())
                    .append(" rows.</p>");
        }
        body.append("<table id=\"approval\"><tr><th>at</th><th>outcome</th><th>by and why</th></tr>");
        for (AttemptRecord a : history) {
            body.append("<tr><td>").append(text(a.startedAt())).append("</td><td>").append(text(a.outcome().name()))
                    .append("</td><td>").append(text(a.detail())).append("</td></tr>");
        }
        body.append("</table>");
        if (awaitsDecision) {
            body.append("<p>Read the payload above: a grant lets the next call with exactly these arguments run the"
                    + " tool once; a denial is final for the key. The decision is recorded with your name.</p>")
                    .append(decisionForm(op, csrf, "grant", "Approve"))
                    .append(decisionForm(op, csrf, "deny", "Deny"));
        }
    }

    private static String decisionForm(OperationRecord op, String csrf, String decision, String title) {
        return "<form method=\"post\" action=\"/approval/confirm\" id=\"" + decision + "\"><h3>" + title + "</h3>"
                + "<input type=\"hidden\" name=\"csrf\" value=\"" + attribute(csrf) + "\">"
                + "<input type=\"hidden\" name=\"tool\" value=\"" + attribute(op.tool()) + "\">"
                + "<input type=\"hidden\" name=\"key\" value=\"" + attribute(op.key()) + "\">"
                + "<input type=\"hidden\" name=\"payloadHash\" value=\"" + attribute(op.payloadHash()) + "\">"
                + "<input type=\"hidden\" name=\"decision\" value=\"" + decision + "\">"
                + "<label for=\"reason-" + decision + "\">Reason (for the attempt log)</label><input type=\"text\""
                + " id=\"reason-" + decision + "\" name=\"reason\"><label for=\"operator-" + decision + "\">Your"
                + " name</label><input type=\"text\" id=\"operator-" + decision + "\" name=\"operator\">"
                + "<label for=\"token-" + decision + "\">Console token (printed by <code>serve</code>)</label>"
                + "<input type=\"password\" id=\"token-" + decision + "\" name=\"token\"><p><button type=\"submit\""
                + " name=\"review\" value=\"1\">Review: " + title.toLowerCase(java.util.Locale.ROOT)
                + "</button></p></form>";
    }

    /**
     * The outbox's undelivered messages, the oldest first, with the relay's last known state of
     * each (never the message): pending ones wait for a relay, the others for an operator
     * ({@code Outbox.settleDelivered} or {@code Outbox.resend}).
     */
    static String outbox(String store, io.idempotent.runtime.OutboxCounts counts,
            List<io.idempotent.runtime.OutboxEntry> rows, Instant now, String csrf) {
        StringBuilder body = new StringBuilder(logout(csrf) + "<h1>Outbox</h1><p>Store <code>" + text(store)
                + "</code>: <span id=\"outbox-counts\">" + counts.pending() + " pending, " + counts.needsReconciliation()
                + " awaiting reconciliation, " + counts.delivered() + " delivered</span>. Messages that tool bodies"
                + " sent, written with their operation's completion and delivered by a relay.</p>");
        if (rows.isEmpty()) {
            body.append("<p id=\"empty\">Every message is delivered.</p>");
            return Html.page("Outbox", body.toString());
        }
        body.append("<table id=\"outbox\"><tr><th>id</th><th>tool</th><th>key</th><th>seq</th><th>destination</th>")
                .append("<th>status</th><th>attempts</th><th>created at</th><th>waited</th><th>last state</th></tr>");
        for (io.idempotent.runtime.OutboxEntry e : rows) {
            body.append("<tr><td>").append(e.id()).append("</td><td>").append(text(e.tool())).append("</td><td><a href=\"")
                    .append(attribute(operationLink(e.tool(), e.operationKey()))).append("\">")
                    .append(text(e.operationKey())).append("</a></td><td>").append(e.sequence()).append("</td><td>")
                    .append(text(e.destination())).append("</td><td>").append(text(e.status())).append("</td><td>")
                    .append(e.attempts()).append("</td><td>").append(text(e.createdAt())).append("</td><td>")
                    .append(text(IncidentReview.age(e.createdAt(), now))).append("</td><td>")
                    .append(text(e.lastState())).append("</td></tr>");
        }
        return Html.page("Outbox", body.append("</table>").toString());
    }

    /** The approval queue: each request with its payload, whole hash and a link to its page, where it is decided. */
    static String approvals(String store, List<PendingApproval> pending, int page, long total, Instant now,
            String csrf) {
        StringBuilder body = new StringBuilder(logout(csrf) + "<h1>Approval queue</h1><p>Store <code>" + text(store)
                + "</code>. These operations wait for a person's decision; the tool has not run. Open one to"
                + " approve or deny it: a decision covers exactly the payload shown.</p>");
        long first = (page - 1L) * ConsoleServer.APPROVALS_PAGE;
        if (pending.isEmpty()) {
            body.append("<p id=\"empty\">").append(page == 1 ? "No operation awaits approval."
                    : "None on this page (the queue has " + total + ").").append("</p>");
            return Html.page("Approval queue", body.toString());
        }
        body.append("<p id=\"approvals-page\">").append(first + 1).append(" to ").append(first + pending.size())
                .append(" of ").append(total).append(", the oldest request first</p><table id=\"approvals\"><tr>")
                .append("<th>tool</th><th>key</th><th>requested at</th><th>waited</th><th>step</th>")
                .append("<th>requested by</th><th>note</th><th>payload</th><th>payload hash</th></tr>");
        for (PendingApproval p : pending) {
            body.append("<tr><td>").append(text(p.tool())).append("</td><td><a href=\"")
                    .append(attribute(operationLink(p.tool(), p.key()))).append("\">").append(text(p.key()))
                    .append("</a></td><td>").append(text(p.requestedAt())).append("</td><td>")
                    .append(text(IncidentReview.age(p.requestedAt(), now))).append("</td><td>").append(text(p.step()))
                    .append("</td><td>").append(text(p.requestedBy())).append("</td><td>")
                    .append(text(ApprovalDecisions.note(p))).append("</td><td><pre>").append(text(p.payloadJson()))
                    .append("</pre></td><td><code>").append(text(p.payloadHash())).append("</code></td></tr>");
        }
        body.append("</table><p id=\"approval-pages\">");
        if (page > 1) {
            body.append("<a href=\"/approvals?page=").append(page - 1).append("\">Previous page</a> ");
        }
        if (first + pending.size() < total) {
            body.append("<a href=\"/approvals?page=").append(page + 1).append("\">Next page</a>");
        }
        return Html.page("Approval queue", body.append("</p>").toString());
    }

    static String confirmDecision(String id, PendingDecision d, Object payload, String csrf) {
        boolean grant = d.decision() == ApprovalDecisions.Decision.GRANT;
        String what = grant ? "<strong>Approve</strong>" : "<strong>Deny</strong>";
        String next = grant ? "the next call with exactly this payload runs the tool once" : "every call with the key"
                + " is answered with the denial, for good";
        StringBuilder body = new StringBuilder(logout(csrf) + "<h1>Confirm the decision</h1><p>" + what + " "
                + text(d.tool()) + " <code>" + text(d.key()) + "</code>: " + next + ".</p><table>");
        fact(body, "payload", payload);
        fact(body, "payload hash", d.payloadHash());
        fact(body, "operator", d.operator());
        fact(body, "reason", d.reason());
        body.append("</table><form method=\"post\" action=\"/approval\" id=\"confirm\">")
                .append("<input type=\"hidden\" name=\"csrf\" value=\"").append(attribute(csrf)).append("\">")
                .append("<input type=\"hidden\" name=\"confirmation\" value=\"").append(attribute(id)).append("\">")
                .append("<p><button type=\"submit\" name=\"confirm\" value=\"1\">Confirm: ")
                .append(grant ? "approve" : "deny").append("</button> <a href=\"")
                .append(attribute(operationLink(d.tool(), d.key()))).append("\">Cancel</a></p></form>");
        return Html.page("Confirm the decision", body.toString());
    }

    static String confirm(String id, PendingSettlement s, String csrf) {
        String what = s.applied() ? "as <strong>applied</strong> (the effect happened); duplicates will replay the"
                + " result below" : "as <strong>not applied</strong> (the effect did not happen); the next call with"
                + " the key runs the tool again";
        StringBuilder body = new StringBuilder(logout(csrf) + "<h1>Confirm the settlement</h1><p>Settle "
                + text(s.tool())
                + " <code>" + text(s.key()) + "</code> " + what + ".</p><table>");
        fact(body, "operator", s.operator());
        if (s.applied()) {
            fact(body, "result", s.resultJson());
        } else {
            fact(body, "reason", s.reason());
        }
        body.append("</table><form method=\"post\" action=\"/settle\" id=\"confirm\">")
                .append("<input type=\"hidden\" name=\"csrf\" value=\"").append(attribute(csrf)).append("\">")
                .append("<input type=\"hidden\" name=\"confirmation\" value=\"").append(attribute(id)).append("\">")
                .append("<p><button type=\"submit\" name=\"confirm\" value=\"1\">Confirm settlement</button> <a href=\"")
                .append(attribute(operationLink(s.tool(), s.key()))).append("\">Cancel</a></p></form>");
        return Html.page("Confirm the settlement", body.toString());
    }

    /**
     * A request the store failed: {@code line} is the command line's error line for the failure
     * ({@link ErrorLine} of {@link StoreOptions#explained}), which names the store and the setting
     * and never holds stored data.
     */
    static String storeFailure(String line) {
        return Html.page("Store failure", "<h1>The store failed</h1><p class=\"error\" id=\"error\">" + text(line)
                + "</p><p>A page that only reads changed nothing. A settlement or decision you confirmed may have"
                + " been recorded before the store failed: open the operation's page again once the store"
                + " answers.</p>");
    }

    static String error(String message) {
        return Html.page("Refused", "<h1>Refused</h1><p class=\"error\" id=\"error\">" + text(message)
                + "</p><p>Nothing was changed.</p>");
    }

    private static void fact(StringBuilder body, String name, Object value) {
        body.append("<tr><th>").append(text(name)).append("</th><td><pre>").append(text(value)).append("</pre></td></tr>");
    }
}
