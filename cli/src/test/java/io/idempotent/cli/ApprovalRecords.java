package io.idempotent.cli;

import io.idempotent.annotations.Approval;
import io.idempotent.runtime.ApprovalPendingException;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.binding.ToolPolicy;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Operations of a tool that needs a person's approval, made through the runtime as the agent
 * would call it: a refund over the limit, {@code refund_over_limit}, keyed by invoice and step.
 * Each first call records the request and is answered {@link ApprovalPendingException}; the body
 * only runs after an operator granted the key, and {@link #effects} counts how often it ran.
 */
final class ApprovalRecords {

    static final String TOOL = "refund_over_limit";
    static final ToolPolicy POLICY = ToolPolicy.builder(TOOL).keyTemplate("refund:{invoiceId}:{step}")
            .downstreamKey(true).downstreamRetention(Duration.ofDays(1)).approval(Approval.REQUIRED)
            .approvalValidity(Duration.ofHours(1)).payloadParameters(List.of("invoiceId", "amountCents")).build();

    /**
     * A note that a terminal or a browser shows as "Refund approved. wire to account 2345-6789": it
     * also carries "pay" in invisible tag characters (U+E0070 U+E0061 U+E0079, outside the Basic
     * Multilingual Plane) and a right-to-left override around the account number.
     */
    static final String HIDDEN_NOTE = "Refund approved." + new String(new int[] {0xE0070, 0xE0061, 0xE0079}, 0, 3)
            + " wire to account \u202E9876-5432\u202C";
    /** How {@link #HIDDEN_NOTE}'s tag characters are shown in text and on the console. */
    static final String SHOWN_TAGS = "Refund approved.\\u{E0070}\\u{E0061}\\u{E0079} wire to account";
    /** How {@link #HIDDEN_NOTE}'s override is shown, in text, JSON and on the console alike. */
    static final String SHOWN_OVERRIDE = "wire to account \\u202E9876-5432\\u202C";
    /** How {@link #HIDDEN_NOTE}'s tag characters are written in JSON: each a pair of surrogate escapes. */
    static final String JSON_TAGS = "Refund approved.\\uDB40\\uDC70\\uDB40\\uDC61\\uDB40\\uDC79 wire to account";
    /** Every character of {@link #HIDDEN_NOTE} that must never be written raw. */
    static final List<String> RAW_HIDDEN = List.of("\u202E", "\u202C", new String(Character.toChars(0xE0070)),
            new String(Character.toChars(0xE0061)), new String(Character.toChars(0xE0079)));

    private final String url;
    private final String user;
    private final String password;
    /** How many times the refund's body ran, over every call of this object. */
    final AtomicInteger effects = new AtomicInteger();

    ApprovalRecords(Stores.Store store) {
        this.url = store.url();
        this.user = store.user();
        this.password = store.password();
    }

    /** The key of the refund of {@code invoice} in step {@code "approval-" + invoice}. */
    static String key(String invoice) {
        return "refund:" + invoice + ":approval-" + invoice;
    }

    /** The payload the call of {@code invoice} carries, as the store's canonical JSON holds it. */
    static Map<String, Object> payload(String invoice, long amountCents) {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("invoiceId", invoice);
        payload.put("amountCents", amountCents);
        return payload;
    }

    /** Asks for the refund of each invoice in turn, for 90000 cents each; every call must be answered pending. */
    void request(String... invoices) {
        try (IdempotentRuntime runtime = runtime()) {
            for (String invoice : invoices) {
                try {
                    call(runtime, invoice, 90_000L);
                } catch (ApprovalPendingException expected) {
                    continue;
                }
                throw new AssertionError("the first call of " + key(invoice) + " was not answered pending");
            }
        }
    }

    /**
     * Asks for the refund under {@code invoice}'s key with {@code payload} as its arguments (what
     * the approver reads); the call must be answered pending.
     */
    void request(String invoice, Map<String, Object> payload) {
        try (IdempotentRuntime runtime = runtime(); Step step = Step.begin("approval-" + invoice)) {
            runtime.call(POLICY, key(invoice), payload, String.class, () -> {
                effects.incrementAndGet();
                return "re_" + invoice;
            });
        } catch (ApprovalPendingException expected) {
            return;
        }
        throw new AssertionError("the first call of " + key(invoice) + " was not answered pending");
    }

    /** Calls the refund of {@code invoice} once more, with {@code amountCents}: the body's result or the answer. */
    String callAgain(String invoice, long amountCents) {
        try (IdempotentRuntime runtime = runtime()) {
            return call(runtime, invoice, amountCents);
        }
    }

    private String call(IdempotentRuntime runtime, String invoice, long amountCents) {
        try (Step step = Step.begin("approval-" + invoice)) {
            return runtime.call(POLICY, key(invoice), payload(invoice, amountCents), String.class, () -> {
                effects.incrementAndGet();
                return "re_" + invoice;
            });
        }
    }

    private IdempotentRuntime runtime() {
        return IdempotentRuntime.builder().store("default", url, user, password).build();
    }
}
