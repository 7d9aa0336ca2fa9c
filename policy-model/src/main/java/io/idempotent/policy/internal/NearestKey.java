package io.idempotent.policy.internal;

import java.util.Collection;

/**
 * The known key a mistyped one was most likely meant to be: the fewest single-character edits
 * (Levenshtein distance), ignoring case, the first listed on a tie. Not for users.
 */
public final class NearestKey {

    private NearestKey() {
    }

    /** The candidate nearest to {@code typed}; candidates must not be empty. */
    public static String among(String typed, Collection<String> candidates) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : candidates) {
            int d = distance(typed.toLowerCase(java.util.Locale.ROOT), candidate.toLowerCase(java.util.Locale.ROOT));
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        if (best == null) {
            throw new IllegalArgumentException("no candidates");
        }
        return best;
    }

    /** The Levenshtein distance between {@code a} and {@code b}. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
