package io.idempotent.runtime.internal;

import com.fasterxml.jackson.databind.JsonMappingException;
import java.util.List;
import java.util.Map;

/**
 * Where in a value Jackson failed, as an operator reads it ({@code order.items[2]}): property
 * names and list indexes only. A map's keys are data (an e-mail address, a card number), so a map
 * entry is shown as {@code [?]}, and a message built from a path never carries a value.
 */
final class JsonPaths {

    /** Past this many steps a path ends in {@code ...}: a cyclic value fails thousands of levels deep. */
    static final int MAX_STEPS = 12;

    private JsonPaths() {
    }

    /** {@code root} followed by the steps of {@code path}, at most {@link #MAX_STEPS} of them. */
    static String render(String root, List<JsonMappingException.Reference> path) {
        StringBuilder out = new StringBuilder(root);
        int shown = 0;
        for (JsonMappingException.Reference ref : path) {
            if (shown++ == MAX_STEPS) {
                out.append("...");
                break;
            }
            if (ref.getIndex() >= 0) {
                out.append('[').append(ref.getIndex()).append(']');
            } else if (ref.getFrom() instanceof Map<?, ?> || ref.getFieldName() == null) {
                out.append("[?]");
            } else {
                out.append('.').append(ref.getFieldName());
            }
        }
        return out.toString();
    }
}
