package io.idempotent.policy.internal;

import java.util.regex.Pattern;

/**
 * Credentials written into a JDBC URL: {@code password=} or {@code pwd=} in a query string or an
 * H2 setting ({@code ;PASSWORD=}), and {@code user:secret@host}. Logs show such URLs masked; the
 * agent refuses them in its arguments, which every process listing shows. Not for users.
 */
public final class UrlCredentials {

    private static final Pattern SETTING = Pattern.compile("(?i)([?&;]\\s*(?:password|pwd)\\s*=)[^;&]*");
    private static final Pattern USER_INFO = Pattern.compile("(//[^/?;@]*?:)[^/?;@]*@");

    private UrlCredentials() {
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
