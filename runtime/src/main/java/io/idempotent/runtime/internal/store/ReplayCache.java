package io.idempotent.runtime.internal.store;

import io.idempotent.runtime.OperationStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One store's bounded memory of recently completed operations (issue 39): a repeat of a key this
 * JVM completed, or replayed from the database, is answered from here without a round trip. The
 * caller decides on the cached record exactly as on one read by the claim (payload hash first),
 * and its answer is written to the attempt log as every other, in the store's batches. No read
 * dates it, so it is dated by the database's clock as last seen by a claim, plus the JVM's
 * monotonic time since that claim was sent: never earlier than the database's time then, so
 * the answer sorts after the completion it replays.
 *
 * <p>Why it is safe: a completed record is terminal. No transition changes it; it leaves the
 * store only when the purge deletes it after its {@code expires_at}, which is at least its
 * retention after the completion (by the database's clock). An entry lives at most that long,
 * counted on the JVM's monotonic clock from before the statement that completed (or read) the
 * record was sent, so it is gone before the purge could make the key fresh, whatever the skew
 * between the JVM's and the database's clocks. A record deleted by hand, or lost to a failover, is
 * still answered from here by the JVM that completed it until the entry's end, which is what the
 * lost record said: the body ran and returned this result (docs/store.md, "Replays from memory").
 * Entries are per store instance and keyed by tool and key, so no answer crosses stores or tools.
 *
 * <p>Bounds: at most {@code maxEntries} records and {@link #MAX_CHARS} characters of results, the
 * least recently used dropped first; a result longer than {@link #MAX_RESULT_CHARS} is not kept.
 * The claims this JVM inserted and has not ended yet are remembered (their payload hash and
 * retention, which the completion does not carry) under the same entry bound.
 */
final class ReplayCache {

    /** A result longer than this is answered from the database (it would crowd out many others). */
    static final int MAX_RESULT_CHARS = 16 * 1024;

    /** The characters of results kept in all (about 8 MB at two bytes a character, at most). */
    static final long MAX_CHARS = 4L * 1024 * 1024;

    private record Id(String tool, String key) {
    }

    /** A claim this JVM inserted, until its attempt ends. */
    private record Pending(ClaimRequest request, String downstreamId) {
    }

    /** A completed record and when its entry ends (System.nanoTime). */
    private record Entry(StoredOperation operation, long endsAt, int chars) {
    }

    private final int maxEntries;
    private final Map<Id, Pending> pending;
    private final Map<Id, Entry> completed;
    private long chars;
    /** The database's time read by the latest claim, and System.nanoTime before it was sent. */
    private Instant seenAt;
    private long seenSentAt;

    /** A cache of at most {@code maxEntries} completed records; 0 keeps none (every claim reads the database). */
    ReplayCache(int maxEntries) {
        if (maxEntries < 0) {
            throw new IllegalArgumentException("maxEntries must not be negative, was " + maxEntries);
        }
        this.maxEntries = maxEntries;
        this.pending = new LinkedHashMap<>(16, 0.75f, false) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Id, Pending> eldest) {
                return size() > maxEntries; // an attempt that never ended (its JVM's body hung) ages out
            }
        };
        this.completed = new LinkedHashMap<>(16, 0.75f, true);
    }

    boolean enabled() {
        return maxEntries > 0;
    }

    /**
     * The completed record of {@code (tool, key)} while its entry lasts, as a claim would have
     * read it (without a read time); null: ask the database.
     */
    StoredOperation lookup(String tool, String key) {
        if (!enabled()) {
            return null;
        }
        Id id = new Id(tool, key);
        synchronized (this) {
            Entry e = completed.get(id);
            if (e == null || seenAt == null) {
                return null;
            }
            if (System.nanoTime() - e.endsAt >= 0) {
                remove(id);
                return null;
            }
            StoredOperation op = e.operation;
            Instant now = seenAt.plusNanos(System.nanoTime() - seenSentAt);
            return new StoredOperation(op.key(), op.tool(), op.status(), op.payloadHash(), op.payloadJson(),
                    op.leaseToken(), op.leaseUntil(), false, op.effectStarted(), op.downstreamId(), op.resultJson(),
                    op.errorJson(), op.attempts(), op.releasedBy(), op.createdAt(), op.updatedAt(), op.expiresAt(),
                    op.attemptId(), now);
        }
    }

    /** What a claim sent at {@code sentAt} (System.nanoTime) answered: a new claim, or a completed record. */
    void claimed(ClaimRequest request, ClaimResult result, long sentAt) {
        if (!enabled()) {
            return;
        }
        if (result instanceof ClaimResult.Inserted inserted) {
            synchronized (this) {
                pending.put(new Id(request.tool(), request.key()), new Pending(request, null));
                if (inserted.leaseUntil() != null) {
                    seen(inserted.leaseUntil().minus(request.lease()), sentAt);
                }
            }
        } else if (result instanceof ClaimResult.Existing existing) {
            StoredOperation op = existing.operation();
            if (op.readAt() != null) {
                synchronized (this) {
                    seen(op.readAt(), sentAt);
                }
            }
            if (op.status() == OperationStatus.COMPLETED && op.expiresAt() != null && op.readAt() != null) {
                // Its life left by the database's clock, counted from before the claim was sent.
                long left = Duration.between(op.readAt(), op.expiresAt()).toNanos();
                // Without its read time: a later answer from here is dated when its log row is written.
                keep(new StoredOperation(op.key(), op.tool(), op.status(), op.payloadHash(), op.payloadJson(),
                        op.leaseToken(), op.leaseUntil(), false, op.effectStarted(), op.downstreamId(),
                        op.resultJson(), op.errorJson(), op.attempts(), op.releasedBy(), op.createdAt(),
                        op.updatedAt(), op.expiresAt(), op.attemptId(), null), sentAt + left, left);
            }
        }
    }

    /** The attempt {@code attemptId} of {@code (tool, key)} marked its effect as starting, with {@code downstreamId}. */
    void effectStarting(String tool, String key, String attemptId, String downstreamId, Transition t) {
        if (!enabled() || !t.applied()) {
            return;
        }
        Id id = new Id(tool, key);
        synchronized (this) {
            Pending p = pending.get(id);
            if (p != null && p.request.attemptId().equals(attemptId)) {
                pending.put(id, new Pending(p.request, downstreamId));
            }
        }
    }

    /**
     * The attempt {@code attemptId} of {@code (tool, key)} ended: completed with {@code
     * resultJson} when {@code t} applied a completion sent at {@code sentAt}; any other ending
     * ({@code resultJson} null, or the change not applied) only forgets the claim.
     */
    void ended(String tool, String key, String attemptId, String resultJson, Transition t, long sentAt) {
        if (!enabled()) {
            return;
        }
        Id id = new Id(tool, key);
        Pending p;
        synchronized (this) {
            p = pending.get(id);
            if (p == null || !p.request.attemptId().equals(attemptId)) {
                return;
            }
            pending.remove(id);
        }
        if (resultJson == null || !(t instanceof Transition.Applied applied)) {
            return;
        }
        ClaimRequest r = p.request;
        StoredOperation op = new StoredOperation(key, tool, OperationStatus.COMPLETED, r.payloadHash(),
                r.payloadJson(), applied.leaseToken(), null, false, true, p.downstreamId, resultJson, null,
                applied.attempts(), null, null, null, null, attemptId, null);
        long left = r.retention().toNanos();
        keep(op, sentAt + left, left);
    }

    /** Forgets every entry: an operator's purge in this JVM (it deletes only what has expired, but costs nothing). */
    synchronized void clear() {
        completed.clear();
        chars = 0;
    }

    private void keep(StoredOperation op, long endsAt, long left) {
        int size = op.resultJson() == null ? 0 : op.resultJson().length();
        if (left <= 0 || size > MAX_RESULT_CHARS) {
            return;
        }
        Id id = new Id(op.tool(), op.key());
        synchronized (this) {
            remove(id);
            completed.put(id, new Entry(op, endsAt, size));
            chars += size;
            Iterator<Map.Entry<Id, Entry>> eldest = completed.entrySet().iterator();
            while ((completed.size() > maxEntries || chars > MAX_CHARS) && eldest.hasNext()) {
                chars -= eldest.next().getValue().chars;
                eldest.remove();
            }
        }
    }

    /**
     * The database's time {@code at}, read by a statement sent at {@code sentAt}: the statement
     * ran after it was sent, so {@code at} plus the time since {@code sentAt} is never behind the
     * database's clock. The latest sent is kept, so that a drift between the two clocks counts
     * only since the last claim.
     */
    private void seen(Instant at, long sentAt) {
        if (seenAt == null || sentAt - seenSentAt > 0) {
            seenAt = at;
            seenSentAt = sentAt;
        }
    }

    private void remove(Id id) {
        Entry e = completed.remove(id);
        if (e != null) {
            chars -= e.chars;
        }
    }

    /** The completed records held now (tests). */
    synchronized int size() {
        return completed.size();
    }
}
