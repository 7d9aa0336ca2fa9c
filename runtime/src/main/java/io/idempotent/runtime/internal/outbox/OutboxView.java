package io.idempotent.runtime.internal.outbox;

import io.idempotent.runtime.MetricsListener;
import io.idempotent.runtime.Outbox;
import io.idempotent.runtime.OutboxCounts;
import io.idempotent.runtime.OutboxEntry;
import io.idempotent.runtime.OutboxRelay;
import io.idempotent.runtime.OutboxSender;
import io.idempotent.runtime.internal.store.OperationStore;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/** The outbox over the runtime's stores ({@link Outbox}). */
public final class OutboxView implements Outbox {

    private static final int MAX_LIST = 10_000;

    private final Function<String, OperationStore> stores;
    private final MetricsListener metrics;

    /** The outbox of the stores {@code stores} finds by name, reporting to {@code metrics}. */
    public OutboxView(Function<String, OperationStore> stores, MetricsListener metrics) {
        this.stores = stores;
        this.metrics = metrics;
    }

    @Override
    public OutboxRelay relay(String store, OutboxSender sender, OutboxRelay.Settings settings) {
        Objects.requireNonNull(sender, "sender");
        Objects.requireNonNull(settings, "settings");
        return new JdbcOutboxRelay(store, stores.apply(store).outbox(), sender, settings, metrics);
    }

    @Override
    public List<OutboxEntry> undelivered(String store, int limit) {
        if (limit < 1 || limit > MAX_LIST) {
            throw new IllegalArgumentException("the outbox's list takes 1 to " + MAX_LIST + " rows, not " + limit);
        }
        return stores.apply(store).outbox().undelivered(limit);
    }

    @Override
    public OutboxCounts counts(String store) {
        return stores.apply(store).outbox().counts();
    }

    @Override
    public boolean settleDelivered(String store, long id, String operator) {
        return stores.apply(store).outbox().settle(id, true, "settled as delivered by " + operator(operator));
    }

    @Override
    public boolean resend(String store, long id, String operator) {
        return stores.apply(store).outbox().settle(id, false, "to be sent again, decided by " + operator(operator));
    }

    private static String operator(String operator) {
        String name = Objects.requireNonNull(operator, "operator").replaceAll("\\p{Cntrl}", " ");
        return name.length() <= 200 ? name : name.substring(0, 200);
    }
}
