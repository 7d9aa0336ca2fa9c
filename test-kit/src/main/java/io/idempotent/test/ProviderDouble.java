package io.idempotent.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A downstream double that counts requests (every call that reached it) and effects (calls that
 * changed something) separately. {@link Mode#DEDUPLICATING} behaves like a payment provider with
 * idempotency keys: the first answer per key is kept and returned to every repeat, which is a
 * request but not an effect. {@link Mode#NOT_DEDUPLICATING} behaves like a mail provider: every
 * request is a new effect. The case's faults strike around each request.
 *
 * <pre>{@code
 * // the tool's client, in the test: forwards to the double with the key it would send
 * PaymentClient client = (invoiceId, cents, idempotencyKey) ->
 *         provider.request(idempotencyKey, () -> "re_" + invoiceId);
 * }</pre>
 */
public final class ProviderDouble {

    /** Whether the downstream deduplicates the key passed with a request. */
    public enum Mode {
        /** Repeats of a key get the first answer and change nothing. */
        DEDUPLICATING,
        /** Every request is a new effect, whatever key it carries. */
        NOT_DEDUPLICATING
    }

    private static volatile ProviderDouble current;

    private final Mode mode;
    private final FaultPlan plan;
    private final List<String> requestKeys = new ArrayList<>();
    private final Map<String, Object> answers = new HashMap<>();
    private int effects;

    private ProviderDouble(Mode mode, FaultPlan plan) {
        this.mode = Objects.requireNonNull(mode, "mode");
        this.plan = plan;
    }

    static ProviderDouble open(Mode mode, FaultPlan plan) {
        ProviderDouble opened = new ProviderDouble(mode, plan);
        current = opened;
        return opened;
    }

    /**
     * The double of the contract case that is running, for reconcilers (the runtime creates them
     * with their no-argument constructor, so they cannot be handed one).
     *
     * @throws IllegalStateException outside a contract case
     */
    public static ProviderDouble current() {
        ProviderDouble d = current;
        if (d == null) {
            throw new IllegalStateException("no contract case with a ProviderDouble is running");
        }
        return d;
    }

    /**
     * One request under {@code idempotencyKey}: applies {@code effect} (an effect), or, when
     * deduplicating and the key was seen, returns the first answer (no effect).
     *
     * @throws UncheckedIOException when the case injects a transport failure here
     */
    @SuppressWarnings("unchecked")
    public <R> R request(String idempotencyKey, Supplier<R> effect) {
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
        String target = "the provider double";
        try {
            plan.beforeSend(target, false);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        R answer;
        synchronized (this) {
            requestKeys.add(idempotencyKey);
            if (mode == Mode.DEDUPLICATING && answers.containsKey(idempotencyKey)) {
                answer = (R) answers.get(idempotencyKey);
            } else {
                answer = effect.get();
                effects++;
                answers.putIfAbsent(idempotencyKey, answer);
            }
        }
        try {
            plan.afterCommit(target, false);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return answer;
    }

    /** Whether an effect under {@code idempotencyKey} happened (what a reconciler asks). */
    public synchronized boolean applied(String idempotencyKey) {
        return answers.containsKey(idempotencyKey);
    }

    /** The answer of the first effect under {@code idempotencyKey}, if any (what a reconciler reads). */
    @SuppressWarnings("unchecked")
    public synchronized <R> Optional<R> answer(String idempotencyKey) {
        return Optional.ofNullable((R) answers.get(idempotencyKey));
    }

    /** Requests that reached the double. */
    public synchronized int requests() {
        return requestKeys.size();
    }

    /** Requests that changed something. */
    public synchronized int effects() {
        return effects;
    }

    /** The keys of the requests, in arrival order. */
    public synchronized List<String> requestKeys() {
        return List.copyOf(requestKeys);
    }

    /** Whether this double deduplicates keys. */
    public Mode mode() {
        return mode;
    }
}
