package io.idempotent.runtime.internal;

import io.idempotent.runtime.ValueRejectedException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sizes of the store's text columns, read from the migrations that create them (one home:
 * the DDL), so that a value too long for its column is refused before any SQL with a clear,
 * permanent error instead of failing in the database as if the store were down.
 */
public final class StoreColumns {

    private static final String[] MIGRATIONS = {
        "db/idempotent/h2/V1__idempotent_tool_operations.sql",
        "db/idempotent/postgresql/V1__idempotent_tool_operations.sql",
        "db/idempotent/h2/V2__idempotent_approvals.sql",
        "db/idempotent/postgresql/V3__idempotent_approvals.sql"
    };
    private static final Pattern VARCHAR = Pattern.compile("(?im)^\\s*([a-z_]+)\\s+VARCHAR\\((\\d+)\\)");
    private static final Map<String, Integer> SIZES = read();

    private StoreColumns() {
    }

    /** The most characters column {@code column} takes (the smallest over both databases). */
    public static int maxLength(String column) {
        Integer size = SIZES.get(column);
        if (size == null) {
            throw new IllegalArgumentException("no text column " + column + " in the migrations");
        }
        return size;
    }

    /**
     * Refuses {@code value} when it does not fit {@code column}.
     *
     * @param what what the value is, for the message ("tool name", "downstream request id")
     * @throws ValueRejectedException naming the tool, the key, the limit and the length (never the value)
     */
    public static void requireFits(String tool, String key, String what, String column, String value) {
        int max = maxLength(column);
        if (value != null && value.length() > max) {
            throw new ValueRejectedException(tool == null || tool.length() > max ? null : tool, key, "the " + what
                    + " has " + value.length() + " characters, more than the " + max + " its store column " + column
                    + " takes; nothing was written", "A repeat gets the same answer: shorten it", null);
        }
    }

    private static Map<String, Integer> read() {
        Map<String, Integer> sizes = new HashMap<>();
        for (String migration : MIGRATIONS) {
            try (InputStream in = StoreColumns.class.getClassLoader().getResourceAsStream(migration)) {
                if (in == null) {
                    throw new IllegalStateException("missing resource " + migration);
                }
                Matcher m = VARCHAR.matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                while (m.find()) {
                    sizes.merge(m.group(1).toLowerCase(java.util.Locale.ROOT), Integer.parseInt(m.group(2)),
                            Math::min);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + migration, e);
            }
        }
        return Map.copyOf(sizes);
    }
}
