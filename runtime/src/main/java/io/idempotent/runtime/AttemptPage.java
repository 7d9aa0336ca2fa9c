package io.idempotent.runtime;

import java.util.List;

/**
 * One page of an operation's attempt log, oldest first. A looping caller can give one key
 * thousands of answers; every one is kept, and operators read them a page at a time
 * ({@link Operations#attemptLog(String, String, String, int, int)}).
 *
 * @param attempts the rows of this page, oldest first
 * @param offset how many rows of the log come before this page
 * @param total how many rows the log (or the outcomes asked for) held when the page was read
 */
public record AttemptPage(List<AttemptRecord> attempts, int offset, long total) {

    /** How many rows {@link Operations#find} loads: the first page, so the original decision is always there. */
    public static final int FIRST_PAGE = 100;

    /** The most rows one page may hold. */
    public static final int MAX_LIMIT = 1000;

    /** Keeps the page immutable and its numbers consistent. */
    public AttemptPage {
        attempts = List.copyOf(attempts);
        if (offset < 0 || !attempts.isEmpty() && total < offset + (long) attempts.size()) {
            throw new IllegalArgumentException("offset " + offset + " and total " + total + " do not fit "
                    + attempts.size() + " rows");
        }
    }

    /**
     * Refuses a page the store will not read: {@code offset} must not be negative, {@code limit}
     * must be 1 to {@link #MAX_LIMIT}.
     *
     * @throws IllegalArgumentException naming the bad value
     */
    public static void checkRange(int offset, int limit) {
        checkRange("the attempt log's", offset, limit);
    }

    /**
     * Refuses a page of {@code whose} list ({@code "the approval queue's"}) that the store will not
     * read, as {@link #checkRange(int, int)} does the attempt log's: every paged read of the
     * operator's API takes the same range.
     *
     * @throws IllegalArgumentException naming the bad value
     */
    public static void checkRange(String whose, int offset, int limit) {
        if (offset < 0) {
            throw new IllegalArgumentException(whose + " offset must not be negative, was " + offset);
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException(whose + " page limit must be 1 to " + MAX_LIMIT + ", was " + limit);
        }
    }

    /** Whether rows of the log follow this page. */
    public boolean hasMore() {
        return nextOffset() < total;
    }

    /** The offset of the row after this page: the next page's offset. */
    public int nextOffset() {
        return offset + attempts.size();
    }
}
