package io.idempotent.policy.internal;

import java.util.regex.Pattern;

/**
 * Credentials written into a JDBC URL: {@code password=} or {@code pwd=} in a query string or an
 * H2 setting ({@code ;PASSWORD=}), and {@code user:secret@host}. Logs show such URLs masked; the
 * agent refuses them in its arguments and the command line in {@code --store-url}, which every
 * process listing shows ({@link #refusal}). Not for users.
 */
public final class UrlCredentials {

    private static final Pattern SETTING = Pattern.compile("(?i)([?&;]\\s*(?:password|pwd)\\s*=)[^;&]*");
    private static final Pattern USER_INFO = Pattern.compile("(//[^/?;@]*?:)[^/?;@]*@");

    /** Where a password goes instead of a URL or an argument that process listings show. */
    public static final String ADVICE = "passwords are never read from agent arguments or the command line (they"
            + " show in process listings); set IDEMPOTENT_STORE_PASSWORD in the environment or -Didempotent.store.password"
            + " instead";

    private UrlCredentials() {
    }

    /**
     * Why {@code url}, given as {@code setting} on a command line or in agent arguments, is refused
     * (it carries a password), or null when it carries none. Never holds the URL itself.
     */
    public static String refusal(String setting, String url) {
        return contain(url) ? setting + " refused: the URL carries a password, and " + ADVICE : null;
    }

    /** Whether {@code url} carries a password. */
    public static boolean contain(String url) {
        return url != null && (SETTING.matcher(url).find() || USER_INFO.matcher(url).find());
    }

    /** {@code url} with every password replaced by {@code ***}. */
    public static String mask(String url) {
        if (url == null) {
            return null;
        }
        String masked = SETTING.matcher(url).replaceAll("$1***");
        return USER_INFO.matcher(masked).replaceAll("$1***@");
    }
}
