package io.idempotent.cli;

import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.AttemptRecord;
import io.idempotent.runtime.OperationRecord;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The incident review of one operation, for people: the original decision, the stored payload,
 * result and downstream id, every attempt with what it was answered, and the settlements with the
 * operator's name. The operator sees stored data here on purpose: this is where it is looked up,
 * unlike exception messages and logs, which never carry it.
 */
final class IncidentReview {

    private static final Set<AttemptOutcome> SETTLEMENTS = Set.of(AttemptOutcome.SETTLED_APPLIED,
            AttemptOutcome.SETTLED_NOT_APPLIED);

    private IncidentReview() {
    }

    /** The attempt rows that record an operator's settlement, oldest first. */
    static List<AttemptRecord> settlements(OperationRecord op) {
        return op.attemptLog().stream().filter(a -> SETTLEMENTS.contains(a.outcome())).toList();
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
        facts.put("decision", "first claimed " + op.createdAt() + "; " + op.attempts() + " attempt(s) ran the body");
        facts.put("payload hash", op.payloadHash());
        facts.put("payload", op.payload());
        facts.put("downstream id", op.downstreamId());
        facts.put("result", op.resultJson());
        facts.put("last error", op.errorJson());
        facts.put("effect may have started", op.effectStarted());
        facts.put("lease token", op.leaseToken());
        facts.put("lease until", op.leaseUntil());
        facts.put("updated", op.updatedAt());
        facts.put("expires", op.expiresAt());
        return facts;
    }

    static void print(PrintWriter out, String store, OperationRecord op) {
        out.println(TerminalText.escape("Operation " + op.tool() + " " + op.key() + " (store " + store + ")"));
        Table facts = new Table("field", "value");
        facts(op).forEach(facts::row);
        facts.print(out);
        out.println();
        out.println("Attempts, oldest first (every call of this key and what it was answered)");
        Table attempts = new Table("#", "started", "ended", "outcome", "lease", "downstream id", "detail");
        int n = 1;
        for (AttemptRecord a : op.attemptLog()) {
            attempts.row(n++, a.startedAt(), a.endedAt(), a.outcome().name(), a.leaseToken(), a.downstreamId(),
                    a.detail());
        }
        attempts.print(out);
        out.println();
        List<AttemptRecord> settled = settlements(op);
        if (settled.isEmpty()) {
            out.println("Settlements: none");
        } else {
            out.println("Settlements");
            Table table = new Table("at", "outcome", "by and why");
            for (AttemptRecord a : settled) {
                table.row(a.startedAt(), a.outcome().name(), a.detail());
            }
            table.print(out);
        }
    }
}
