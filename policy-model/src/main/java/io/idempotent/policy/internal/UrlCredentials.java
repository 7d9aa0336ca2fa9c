package io.idempotent.policy.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Credentials written into a JDBC URL: a setting whose name ends in {@code password} or
 * {@code pwd}, in any case ({@code password=}, {@code PASSWORD=}, {@code sslpassword=},
 * {@code ;PASSWORD=} in an H2 URL), and the password of user-info ({@code user:secret@host},
 * where the secret may hold {@code /} and {@code @}: it runs to the last {@code @} before the
 * query). The one masking rule: logs, messages and the driver's texts that quote a URL show
 * it masked ({@link #mask}, {@link #maskIn}); the agent refuses such URLs in its arguments and
 * the command line in {@code --store-url}, which every process listing shows ({@link #refusal}).
 * Not for users.
 */
public final class UrlCredentials {

    /** A setting's name ending in password or pwd, after a separator, and its value up to the next one. */
    private static final Pattern SETTING = Pattern.compile(
            "(?i)((?:^|[?&;,\\s(\"'])[a-z0-9_.-]*(?:password|pwd)\\s*=)[^;&]*");
    /** {@code //user:secret@}: the secret runs to the last {@code @} before the query, a setting or a space. */
    private static final Pattern USER_INFO = Pattern.compile("(//[^/?;:@\\s]*(?:@[^/?;:@\\s]*)*:)[^?;\\s]*@");

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

    /** Whether {@code url} carries a password as user-info ({@code //user:secret@host}). */
    public static boolean hasUserInfo(String url) {
        return url != null && USER_INFO.matcher(url).find();
    }

    /** {@code url} (or a text that quotes URLs) with every password replaced by {@code ***}. */
    public static String mask(String url) {
        if (url == null) {
            return null;
        }
        String masked = SETTING.matcher(url).replaceAll("$1***");
        return USER_INFO.matcher(masked).replaceAll("$1***@");
    }

    /**
     * {@code text} (a driver's or a pool's message) masked, and with every password that
     * {@code url} carries replaced by {@code ***} wherever it appears: a driver may quote a piece
     * of the URL that no longer looks like one (the PostgreSQL driver names {@code user:secret@host}
     * as a host it could not find).
     */
    public static String maskIn(String text, String url) {
        if (text == null) {
            return null;
        }
        String masked = mask(text);
        for (String secret : secrets(url)) {
            masked = masked.replace(secret, "***");
        }
        return masked;
    }

    /** The passwords {@code url} carries, longest first (one may contain another). */
    static List<String> secrets(String url) {
        List<String> secrets = new ArrayList<>();
        if (url == null) {
            return secrets;
        }
        Matcher setting = SETTING.matcher(url);
        while (setting.find()) {
            secrets.add(url.substring(setting.end(1), setting.end()));
        }
        Matcher userInfo = USER_INFO.matcher(url);
        while (userInfo.find()) {
            secrets.add(url.substring(userInfo.end(1), userInfo.end() - 1));
        }
        secrets.removeIf(String::isEmpty);
        secrets.sort(Comparator.comparingInt(String::length).reversed());
        return secrets;
    }
}
