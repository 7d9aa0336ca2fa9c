package io.idempotent.runtime.internal.outbox;

import io.idempotent.runtime.MessageNotDeliveredException;
import io.idempotent.runtime.MetricsListener;
import io.idempotent.runtime.OutboxMessage;
import io.idempotent.runtime.OutboxRelay;
import io.idempotent.runtime.OutboxSender;
import io.idempotent.runtime.internal.store.OutboxRows;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One relay of one store's outbox. A pass first takes up the rows of relays whose claim ran out
 * mid-send (sent again when the destination deduplicates, otherwise to reconciliation: the send
 * may have arrived), then claims due rows batch by batch and sends each while its claim has at
 * least half its length left. Every outcome is one write fenced by the row's claim token.
 */
final class JdbcOutboxRelay implements OutboxRelay {

    private static final System.Logger LOG = System.getLogger(JdbcOutboxRelay.class.getName());
    /** How much of a sender's reason the row keeps. */
    private static final int MAX_REASON = 300;

    private final String store;
    private final OutboxRows rows;
    private final OutboxSender sender;
    private final Settings settings;
    private final MetricsListener metrics;
    private final CountDownLatch stop = new CountDownLatch(1);
    private Thread thread;

    JdbcOutboxRelay(String store, OutboxRows rows, OutboxSender sender, Settings settings, MetricsListener metrics) {
        this.store = store;
        this.rows = rows;
        this.sender = sender;
        this.settings = settings;
        this.metrics = metrics;
    }

    @Override
    public int deliverDue() {
        takeUpAbandoned();
        int delivered = 0;
        while (stop.getCount() > 0) {
            long claimSent = System.nanoTime();
            List<OutboxRows.Claimed> batch = rows.claim(settings.relayId(), settings.batch(), settings.claim());
            int deliveredNow = 0;
            for (OutboxRows.Claimed claimed : batch) {
                Duration held = Duration.ofNanos(System.nanoTime() - claimSent);
                if (stop.getCount() == 0 || held.compareTo(settings.claim().dividedBy(2)) > 0) {
                    // Too little of the claim left to be sure it outlasts the send: another relay
                    // could take the row up meanwhile, and two would send it at once.
                    rows.release(claimed.message().id(), claimed.claimToken());
                } else if (deliver(claimed)) {
                    deliveredNow++;
                }
            }
            delivered += deliveredNow;
            // A batch that delivered nothing ends the pass: its rows wait for their backoff.
            if (batch.isEmpty() || deliveredNow == 0) {
                break;
            }
        }
        metrics.outboxBacklog(store, rows.undeliveredCounts());
        return delivered;
    }

    private void takeUpAbandoned() {
        for (OutboxRows.Abandoned row : rows.abandoned(settings.batch())) {
            boolean again = sender.deduplicates(row.destination());
            String state = "relay " + row.claimedBy() + " stopped during send attempt " + row.attempts()
                    + " (or stalled past its claim); " + (again ? "sent again with the same key, as the destination"
                            + " deduplicates" : "whether the destination got it is unknown, and it does not"
                            + " deduplicate");
            if (rows.takeUpAbandoned(row, again, state) && !again) {
                metrics.outboxNeedsReconciliation(row.tool(), row.destination());
                LOG.log(System.Logger.Level.WARNING, "outbox of store " + store + ": message " + row.id() + " of tool "
                        + row.tool() + " to " + row.destination() + " awaits reconciliation: its relay stopped during a"
                        + " send; see Outbox.undelivered or the CLI's outbox command");
            }
        }
    }

    /** Sends one claimed row and records the outcome; true when it was delivered. */
    private boolean deliver(OutboxRows.Claimed claimed) {
        OutboxMessage m = claimed.message();
        try {
            sender.send(m);
        } catch (MessageNotDeliveredException e) {
            failed(claimed, true, "send attempt " + m.attempt() + " not delivered: " + reason(e));
            return false;
        } catch (Exception e) {
            boolean again = sender.deduplicates(m.destination());
            failed(claimed, again, "send attempt " + m.attempt() + " failed with " + e.getClass().getName()
                    + "; the destination may have it" + (again ? " (it deduplicates: sent again)" : ""));
            return false;
        }
        if (!rows.delivered(m.id(), claimed.claimToken(), "delivered by relay " + settings.relayId() + " at send attempt "
                + m.attempt())) {
            LOG.log(System.Logger.Level.WARNING, "outbox of store " + store + ": message " + m.id() + " of tool "
                    + m.tool() + " was sent, but relay " + settings.relayId() + " no longer held its claim, so the"
                    + " delivery was not recorded; it was taken up again (the destination gets it again only if it"
                    + " deduplicates)");
            return false;
        }
        metrics.outboxDelivered(m.tool(), m.destination());
        return true;
    }

    private void failed(OutboxRows.Claimed claimed, boolean mayRetry, String state) {
        OutboxMessage m = claimed.message();
        metrics.outboxSendFailed(m.tool(), m.destination());
        if (mayRetry && m.attempt() < settings.maxAttempts()) {
            rows.retryLater(m.id(), claimed.claimToken(), backoff(m.attempt()), state);
        } else if (rows.uncertain(m.id(), claimed.claimToken(), mayRetry ? state + "; gave up after "
                + m.attempt() + " attempts" : state)) {
            metrics.outboxNeedsReconciliation(m.tool(), m.destination());
        }
    }

    /** The pause after the {@code attempt}-th failed send: the first backoff, doubled each time, capped. */
    Duration backoff(int attempt) {
        Duration pause = settings.firstBackoff();
        for (int i = 1; i < attempt && pause.compareTo(settings.maxBackoff()) < 0; i++) {
            pause = pause.multipliedBy(2);
        }
        return pause.compareTo(settings.maxBackoff()) > 0 ? settings.maxBackoff() : pause;
    }

    private static String reason(Exception e) {
        String text = String.valueOf(e.getMessage()).replaceAll("\\p{Cntrl}", " ");
        return text.length() <= MAX_REASON ? text : text.substring(0, MAX_REASON) + "...";
    }

    @Override
    public synchronized OutboxRelay start() {
        if (thread != null) {
            throw new IllegalStateException("outbox relay " + settings.relayId() + " is already started");
        }
        thread = new Thread(this::run, "idempotent-outbox-relay-" + store);
        thread.setDaemon(true);
        thread.start();
        return this;
    }

    private void run() {
        while (stop.getCount() > 0) {
            try {
                deliverDue();
            } catch (RuntimeException e) {
                // The store was down or refused: the next pass tries again; rows stay as they were.
                LOG.log(System.Logger.Level.WARNING, "outbox relay " + settings.relayId() + " of store " + store
                        + ": a pass failed (" + e.getClass().getName() + "); the next one tries again");
            }
            try {
                if (stop.await(settings.pollEvery().toMillis(), TimeUnit.MILLISECONDS)) {
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public void close() {
        stop.countDown();
        Thread t;
        synchronized (this) {
            t = thread;
        }
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(settings.claim().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
