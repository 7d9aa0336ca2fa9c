package io.idempotent.runtime.internal;

import io.idempotent.runtime.ValueRejectedException;

/**
 * The rules a downstream request id must satisfy before it is recorded: it fits its column, and
 * it has no control character. Operators read it in terminals, pages and log lines, so an id
 * with an escape sequence or a line break (a downstream's answer echoed as the id) is refused
 * before anything is written, as an operation key with one is.
 */
public final class DownstreamIds {

    private DownstreamIds() {
    }

    /**
     * Refuses {@code id} (null means none, and passes).
     *
     * @throws ValueRejectedException naming the tool, the key and the character's code point and
     *     index, never the id
     */
    public static void requireRecordable(String tool, String key, String id) {
        StoreColumns.requireFits(tool, key, "downstream request id", "downstream_id", id);
        if (id == null) {
            return;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (Character.isISOControl(c)) {
                throw new ValueRejectedException(tool, key, "the downstream request id contains the control"
                        + " character U+" + String.format("%04X", (int) c) + " at index " + i + "; nothing was"
                        + " written and the effect was not started", "A repeat gets the same answer: report the"
                        + " downstream's id without control characters", null);
            }
        }
    }
}
