package io.idempotent.policy.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * The release-gate tables name classes by their canonical name ({@code a.B.C}); a class loader
 * wants the binary name ({@code a.B$C} when {@code C} is nested in {@code B}). The agent and the
 * runtime both find it by this one rule. Not for users.
 */
public final class BinaryNames {

    private BinaryNames() {
    }

    /**
     * The binary name of the class of canonical name {@code canonicalName} that {@code loader}
     * has a class file for, or {@code null}.
     */
    public static String of(String canonicalName, ClassLoader loader) {
        List<String> candidates = new ArrayList<>();
        String name = canonicalName;
        candidates.add(name);
        for (int dot = name.lastIndexOf('.'); dot > 0; dot = name.lastIndexOf('.', dot - 1)) {
            name = name.substring(0, dot) + '$' + name.substring(dot + 1);
            candidates.add(name);
        }
        for (String candidate : candidates) {
            if (loader.getResource(candidate.replace('.', '/') + ".class") != null) {
                return candidate;
            }
        }
        return null;
    }
}
