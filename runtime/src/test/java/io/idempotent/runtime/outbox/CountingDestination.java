package io.idempotent.runtime.outbox;

import io.idempotent.runtime.OutboxMessage;
import io.idempotent.runtime.OutboxSender;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A destination as the seed's rule asks a test double to be: it counts the hits it got (every
 * send a relay made) apart from the business effects (each idempotency key applied once, when it
 * deduplicates; every hit, when it does not). It also records which messages are in a send right
 * now, so a test sees two relays holding one message at once, and the order of each operation's
 * messages.
 */
final class CountingDestination implements OutboxSender {

    private final boolean deduplicates;
    private final AtomicInteger hits = new AtomicInteger();
    private final AtomicInteger effects = new AtomicInteger();
    private final Set<String> appliedKeys = ConcurrentHashMap.newKeySet();
    private final Set<Long> inFlight = ConcurrentHashMap.newKeySet();
    private final AtomicInteger overlaps = new AtomicInteger();
    private final Map<String, List<Integer>> sequences = new ConcurrentHashMap<>();
    private final List<String> keysSent = java.util.Collections.synchronizedList(new ArrayList<>());
    /** What happens in a send after the effect, before the answer (a crash, for a test). */
    private volatile Runnable afterEffect = () -> { };

    CountingDestination(boolean deduplicates) {
        this.deduplicates = deduplicates;
    }

    void afterEffect(Runnable action) {
        afterEffect = action;
    }

    @Override
    public void send(OutboxMessage message) {
        if (!inFlight.add(message.id())) {
            overlaps.incrementAndGet();
        }
        try {
            hits.incrementAndGet();
            keysSent.add(message.idempotencyKey());
            if (!deduplicates || appliedKeys.add(message.tool() + "/" + message.idempotencyKey())) {
                effects.incrementAndGet();
                sequences.computeIfAbsent(message.tool() + "/" + message.operationKey(),
                        k -> java.util.Collections.synchronizedList(new ArrayList<>())).add(message.sequence());
            }
            afterEffect.run();
        } finally {
            inFlight.remove(message.id());
        }
    }

    @Override
    public boolean deduplicates(String destination) {
        return deduplicates;
    }

    int hits() {
        return hits.get();
    }

    int effects() {
        return effects.get();
    }

    int overlaps() {
        return overlaps.get();
    }

    List<String> keysSent() {
        return List.copyOf(keysSent);
    }

    Map<String, List<Integer>> sequences() {
        return sequences;
    }
}
