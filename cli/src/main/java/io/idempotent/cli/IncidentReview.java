package io.idempotent.cli;

import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.AttemptPage;
import io.idempotent.runtime.AttemptRecord;
import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.Operations;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The incident review of one operation, for people: the original decision, the stored payload,
 * result and downstream id, the attempts with what each was answered (a page at a time: a looping
 * caller can give one key thousands of answers), the settlements with the operator's name, and,
 * for a tool that needs approval, the request and every decision on it with the operator and the
 * reason. The operator sees stored data here on purpose: this is where it is looked up, unlike
 * exception messages and logs, which never carry it.
 */
final class IncidentReview {

    private static final Set<AttemptOutcome> SETTLEMENTS = Set.of(AttemptOutcome.SETTLED_APPLIED,
            AttemptOutcome.SETTLED_NOT_APPLIED);
    /**
     * The approval's history: the request, the operators' grants and denials, and the grants that
     * expired unused; not the answers to calls while it waited, which a looping caller makes many.
     */
    private static final Set<AttemptOutcome> APPROVAL_HISTORY = Set.of(AttemptOutcome.APPROVAL_REQUESTED,
            AttemptOutcome.APPROVAL_GRANTED, AttemptOutcome.APPROVAL_DENIED, AttemptOutcome.APPROVAL_EXPIRED);
    private static final Set<OperationStatus> APPROVAL_STATUSES = Set.of(OperationStatus.AWAITING_APPROVAL,
            OperationStatus.APPROVED, OperationStatus.DENIED);

    private IncidentReview() {
    }

    /**
     * One operation as the review shows it: its record, the page of its attempt log on show, its
     * settlements and its approval's history, each read by its own query wherever it is in the log
     * (a looping caller can put thousands of answers before them).
     */
    record Review(OperationRecord op, AttemptPage attempts, AttemptPage settlements, AttemptPage approvals) {

        /** Whether the review has an approval section: the tool asked for one. */
        boolean hasApproval() {
            return !approvals.attempts().isEmpty() || APPROVAL_STATUSES.contains(op.status());
        }
    }

    /**
     * Reads the review of {@code op}: the attempt log's rows from {@code offset}, at most
     * {@code limit} (already checked), and the first {@link AttemptPage#MAX_LIMIT} settlements and
     * rows of the approval's history.
     */
    static Review read(Operations operations, String store, OperationRecord op, int offset, int limit) {
        AttemptPage attempts = offset == 0 && limit == AttemptPage.FIRST_PAGE
                ? new AttemptPage(op.attemptLog(), 0, op.attemptCount())
                : operations.attemptLog(store, op.tool(), op.key(), offset, limit);
        return new Review(op, attempts, operations.attemptLog(store, op.tool(), op.key(), SETTLEMENTS, 0,
                AttemptPage.MAX_LIMIT), operations.attemptLog(store, op.tool(), op.key(), APPROVAL_HISTORY, 0,
                AttemptPage.MAX_LIMIT));
    }

    /** "Attempts 1 to 100 of 250": which rows of the log a page holds. */
    static String pageTitle(AttemptPage page) {
        if (page.attempts().isEmpty()) {
            return "Attempts: none from row " + (page.offset() + 1L) + " (the log has " + page.total() + ")";
        }
        return "Attempts " + (page.offset() + 1L) + " to " + page.nextOffset() + " of " + page.total()
                + ", oldest first";
    }

    /** How long ago {@code since} was, in whole seconds, as ISO-8601 (PT1H2M3S). */
    static String age(Instant since, Instant now) {
        if (since == null) {
            return null;
        }
        return Duration.between(since, now).withNanos(0).toString();
    }

    /** The facts of the review, in the order people read them: the text and the console show the same. */
    static Map<String, Object> facts(OperationRecord op) {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("status", op.status().column());
        facts.put("decision", decision(op));
        facts.put("payload hash", op.payloadHash());
        facts.put("payload", op.payload());
        facts.put("downstream id", op.downstreamId());
        facts.put("result", op.resultJson());
        facts.put("last error", op.errorJson());
        facts.put("effect may have started", op.effectStarted());
        facts.put("lease token", op.leaseToken());
        // An approved record's lease is the grant's end.
        facts.put(op.status() == OperationStatus.APPROVED ? "grant valid until" : "lease until", op.leaseUntil());
        facts.put("updated", op.updatedAt());
        facts.put("expires", op.expiresAt());
        return facts;
    }

    /**
     * How the operation came to be and where it stands, in one sentence: for a tool that needs
     * approval, what the approval's state means for the next call.
     */
    static String decision(OperationRecord op) {
        String ran = op.attempts() + " attempt(s) ran the body";
        return switch (op.status()) {
            case AWAITING_APPROVAL -> "approval requested " + op.createdAt() + "; waits for an operator to approve or"
                    + " deny it (calls are answered that it is pending); " + ran;
            case APPROVED -> "approval requested " + op.createdAt() + "; approved: the next call with the same"
                    + " arguments runs the body once, if it comes by " + op.leaseUntil() + "; " + ran;
            case DENIED -> "approval requested " + op.createdAt() + "; denied: every call with the key is answered"
                    + " with the denial and the body never runs; " + ran;
            default -> "first claimed " + op.createdAt() + "; " + ran;
        };
    }

    static void print(PrintWriter out, String store, Review review) {
        OperationRecord op = review.op();
        out.println(TerminalText.escape("Operation " + op.tool() + " " + op.key() + " (store " + store + ")"));
        Table facts = new Table("field", "value");
        facts(op).forEach(facts::row);
        facts.print(out);
        out.println();
        AttemptPage page = review.attempts();
        out.println(pageTitle(page) + " (every call of this key and what it was answered)");
        Table attempts = new Table("#", "started", "ended", "outcome", "lease", "downstream id", "detail");
        long n = page.offset() + 1L;
        for (AttemptRecord a : page.attempts()) {
            attempts.row(n++, a.startedAt(), a.endedAt(), a.outcome().name(), a.leaseToken(), a.downstreamId(),
                    a.detail());
        }
        attempts.print(out);
        if (page.hasMore()) {
            out.println(TerminalText.escape((page.total() - page.nextOffset()) + " more: show " + op.tool() + " "
                    + op.key() + " --attempts-offset " + page.nextOffset() + " --attempts-limit "
                    + page.attempts().size()));
        }
        out.println();
        List<AttemptRecord> settled = review.settlements().attempts();
        if (settled.isEmpty()) {
            out.println("Settlements: none");
        } else {
            out.println(review.settlements().hasMore() ? "Settlements, the first " + settled.size() + " of "
                    + review.settlements().total() : "Settlements");
            Table table = new Table("at", "outcome", "by and why");
            for (AttemptRecord a : settled) {
                table.row(a.startedAt(), a.outcome().name(), a.detail());
            }
            table.print(out);
        }
        if (review.hasApproval()) {
            out.println();
            List<AttemptRecord> history = review.approvals().attempts();
            out.println(review.approvals().hasMore() ? "Approval, the first " + history.size() + " of "
                    + review.approvals().total() + " rows" : "Approval (request, decisions with the operator and"
                    + " reason, expiries)");
            Table table = new Table("at", "outcome", "by and why");
            for (AttemptRecord a : history) {
                table.row(a.startedAt(), a.outcome().name(), a.detail());
            }
            table.print(out);
        }
    }
}
