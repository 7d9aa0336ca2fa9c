package io.idempotent.cli;

import io.idempotent.runtime.Approvals;
import io.idempotent.runtime.PendingApproval;
import io.idempotent.runtime.internal.store.OperationStore;
import io.idempotent.runtime.internal.store.StoredOperation;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Granting or denying an operation that awaits approval, for the command line and the console
 * alike. The operator is named ({@link OperatorName}) and the decision names the payload hash the
 * operator saw: {@link Approvals} records it only if that is the stored hash and the operation
 * still awaits a decision, in one statement, so of two operators deciding at once one is recorded
 * and the other is refused. Every decision leaves one INFO line in {@link #LOG_NAME} (tool, key,
 * decision, operator and where it was made), never the payload, its hash or the reason: those are
 * in the attempt log.
 */
final class ApprovalDecisions {

    /** The logger of decisions; the command line keeps it at INFO while it quiets the rest. */
    static final String LOG_NAME = "io.idempotent.cli.approvals";
    /** What a payload hash looks like: the SHA-256 of the canonical payload, in hex. */
    private static final Pattern HASH = Pattern.compile("[0-9a-fA-F]{64}");
    private static final System.Logger LOG = System.getLogger(LOG_NAME);

    /** A person's answer to an approval request. */
    enum Decision {
        GRANT("grant", "granted"),
        DENY("denial", "denied");

        private final String noun;
        private final String done;

        Decision(String noun, String done) {
            this.noun = noun;
            this.done = done;
        }

        /** "grant" or "denial", for messages. */
        String noun() {
            return noun;
        }

        /** "granted" or "denied", for messages. */
        String done() {
            return done;
        }
    }

    private final Approvals approvals;
    private final String store;
    private final String channel;

    /** @param channel where the decision is made, for the log line ("console", "command line") */
    ApprovalDecisions(Approvals approvals, String store, String channel) {
        this.approvals = approvals;
        this.store = store;
        this.channel = channel;
    }

    /**
     * What is wrong with {@code hash} as a payload hash, or null when it can be one: a prefix or a
     * typo would only be refused later, with less help.
     */
    static String hashProblem(String hash) {
        String given = hash == null ? "" : hash.strip();
        return HASH.matcher(given).matches() ? null : "the payload hash must be the whole SHA-256 that the approval"
                + " queue shows (64 hex digits), not " + given.length() + " characters";
    }

    /**
     * Whether {@code tool}'s operation {@code key} waits for an operator's decision now, by the
     * store's own verdict ({@link StoredOperation#awaitsDecision}: the database's clock), which
     * {@link Approvals} decides by too: the console shows its forms, and reviews a decision, only
     * then, so an operator never sees a form the store would refuse nor misses one it would accept.
     * {@link Approvals} still has the last word on a decision made meanwhile.
     */
    static boolean awaitsDecision(OperationStore records, String tool, String key) {
        return records.find(tool, key).map(StoredOperation::awaitsDecision).orElse(false);
    }

    /** "expired grant by alice" for a request whose grant ended unused, else null: queues show it. */
    static String note(PendingApproval p) {
        return p.expiredGrant() ? "expired grant by " + (p.decidedBy() == null ? "an operator" : p.decidedBy())
                : null;
    }

    /**
     * Records {@code decision} on {@code tool}'s operation {@code key}, by {@code operator}, if its
     * payload hash is still {@code payloadHash}.
     *
     * @throws RefusedException when the operator's name or the hash cannot be used, the hash is not
     *     the stored one, or the operation is absent or does not await a decision; nothing was changed
     */
    void decide(Decision decision, String tool, String key, String payloadHash, String operator, String reason) {
        String name = OperatorName.require(operator);
        String problem = hashProblem(payloadHash);
        if (problem != null) {
            throw new RefusedException(problem + "; nothing was changed");
        }
        String hash = payloadHash.strip().toLowerCase(Locale.ROOT);
        String why = reason == null || reason.isBlank() ? null : reason.strip();
        try {
            if (decision == Decision.GRANT) {
                approvals.grant(store, tool, key, hash, name, why);
            } else {
                approvals.deny(store, tool, key, hash, name, why);
            }
        } catch (IllegalArgumentException | IllegalStateException e) {
            // The runtime's message names the tool, the key and what to do; it never says either hash.
            throw new RefusedException(decision.noun() + " refused: " + e.getMessage() + "; nothing was changed", e);
        }
        // The runtime refuses control characters in a key, not format ones (a tag, an override): escaped.
        LOG.log(System.Logger.Level.INFO, TerminalText.escape(decision.done() + " " + tool + " " + key + " by " + name
                + " (" + channel + ")"));
    }
}
