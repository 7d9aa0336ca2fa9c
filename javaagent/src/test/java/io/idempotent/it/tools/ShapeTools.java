package io.idempotent.it.tools;

import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Tools of every shape the advice must handle: instance and static methods, void, primitive and
 * generic results, a checked exception of the method, a key that needs the workflow's step. Each
 * body records its effect in {@link Effects} and returns something that differs per execution,
 * so a replay is told apart from a second run.
 */
public class ShapeTools {

    /** A line of a pick list. */
    public record Item(String sku, int quantity) {
    }

    /** The card was declined before anything was charged: safe to retry. */
    public static final class CardDeclined extends Exception {
        private static final long serialVersionUID = 1L;

        /** A decline for {@code id}. */
        public CardDeclined(String id) {
            super("card declined for " + id);
        }
    }

    /** The provider failed after it may have charged: not known whether it happened. */
    public static final class ProviderTimeout extends Exception {
        private static final long serialVersionUID = 1L;

        /** A timeout for {@code id}. */
        public ProviderTimeout(String id) {
            super("provider timed out for " + id);
        }
    }

    /** Void instance method. */
    @IdempotentTool(key = "note:{ticket}:{step}", downstreamKey = false, reconciler = ManualReview.class,
            retry = Retry.NEVER)
    public void addNote(String ticket, String text) {
        Effects.record("note:" + ticket);
    }

    /** Primitive result. */
    @IdempotentTool(key = "reserve:{sku}:{step}", downstreamKey = false, reconciler = ManualReview.class,
            retry = Retry.NEVER)
    public int reserve(String sku, int quantity) {
        Effects.record("reserve:" + sku);
        return Effects.total() * 1000 + quantity;
    }

    /** Static method with a generic result. */
    @IdempotentTool(key = "pick:{orderId}:{step}", downstreamKey = false, reconciler = ManualReview.class,
            retry = Retry.NEVER)
    public static List<Item> pick(String orderId, int lines) {
        Effects.record("pick:" + orderId);
        List<Item> items = new ArrayList<>();
        for (int i = 0; i < lines; i++) {
            items.add(new Item(orderId + "-" + i, Effects.total()));
        }
        return items;
    }

    /** A map of optionals, the deepest generic shape. */
    @IdempotentTool(key = "stock:{warehouse}:{step}", downstreamKey = false, reconciler = ManualReview.class,
            retry = Retry.NEVER)
    public Map<String, Optional<Long>> stock(String warehouse, List<String> skus) {
        Effects.record("stock:" + warehouse);
        return Map.of(skus.get(0), Optional.of((long) Effects.total()), "missing", Optional.empty());
    }

    /**
     * Checked exceptions: a decline (listed in {@code notAppliedOn}, safe to retry) and a
     * timeout after the charge may have happened (needs reconciliation).
     */
    @IdempotentTool(key = "charge:{customer}:{step}", downstreamKey = false, reconciler = ManualReview.class,
            retry = Retry.SAFE, notAppliedOn = CardDeclined.class)
    public long charge(String customer, long cents) throws CardDeclined, ProviderTimeout {
        if (Effects.takeDecline(customer)) {
            throw new CardDeclined(customer);
        }
        Effects.record("charge:" + customer);
        if (cents == 0) {
            throw new ProviderTimeout(customer);
        }
        return cents + Effects.total();
    }
}
