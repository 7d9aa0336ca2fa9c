package io.idempotent.cli;

import static io.idempotent.cli.ExampleRecords.EMAIL;
import static io.idempotent.cli.ExampleRecords.LOST_EMAIL;
import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.examples.tools.EmailReceipt;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OperationStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input given to the command line, run as a process on an H2 file and on PostgreSQL: one row
 * per mistake, each asserting the exit code (docs/operating.md, "The command line") and the one error line,
 * which never carries a stack trace, SQL or a password. Nothing is changed in the store.
 */
class BadInputIT {

    /** A password that must never be printed. */
    private static final String SECRET = "hunter2-secret";

    @TempDir
    Path dir;

    /**
     * One mistake: the command line ({@code {classes}} and {@code {dir}} are replaced), the
     * environment changed from the store's own, the exit code and what the error line says.
     */
    record Mistake(String what, Map<String, String> environment, int exitCode, List<String> says, Set<Stores> on,
            String... args) {

        Mistake(String what, Map<String, String> environment, int exitCode, List<String> says, String... args) {
            this(what, environment, exitCode, says, EnumSet.allOf(Stores.class), args);
        }

        /** This mistake on one database only. */
        Mistake on(Stores only) {
            return new Mistake(what, environment, exitCode, says, EnumSet.of(only), args);
        }

        @Override
        public String toString() {
            return what;
        }
    }

    /** The environment of a shell that configures no store at all. */
    private static final Map<String, String> NO_STORE = Map.of("IDEMPOTENT_STORE_URL", "", "IDEMPOTENT_STORE_USER",
            "", "IDEMPOTENT_STORE_PASSWORD", "");

    private static Mistake mistake(String what, int exitCode, List<String> says, String... args) {
        return new Mistake(what, Map.of(), exitCode, says, args);
    }

    static List<Mistake> mistakes() {
        List<String> settle = List.of("settle", "applied", EMAIL, LOST_EMAIL, "--operator", "alice",
                "--app-classpath", "{classes}", "--result-file");
        return List.of(
                mistake("a negative --limit", ExitCode.USAGE, List.of("error: --limit must be at least 1, was -1"),
                        "pending", "--limit", "-1"),
                mistake("a zero --limit", ExitCode.USAGE, List.of("error: --limit must be at least 1, was 0"),
                        "pending", "--limit", "0"),
                mistake("a --limit that is not a number", ExitCode.USAGE,
                        List.of("error: Invalid value for option '--limit'", "(see idempotent-cli pending --help)"),
                        "pending", "--limit", "ten"),
                mistake("a negative --attempts-offset", ExitCode.USAGE,
                        List.of("error: --attempts-offset must not be negative, was -1"), "show", EMAIL, LOST_EMAIL,
                        "--attempts-offset", "-1"),
                mistake("a zero --attempts-limit", ExitCode.USAGE,
                        List.of("error: --attempts-limit must be 1 to 1000, was 0"), "show", EMAIL, LOST_EMAIL,
                        "--attempts-limit", "0"),
                mistake("an --attempts-limit over 1000", ExitCode.USAGE,
                        List.of("error: --attempts-limit must be 1 to 1000, was 1001"), "show", EMAIL, LOST_EMAIL,
                        "--attempts-limit", "1001"),
                mistake("an --attempts-offset that is not a number", ExitCode.USAGE,
                        List.of("error: Invalid value for option '--attempts-offset'", "(see idempotent-cli show --help)"),
                        "show", EMAIL, LOST_EMAIL, "--attempts-offset", "ten"),
                mistake("a negative --older-than", ExitCode.USAGE,
                        List.of("error: --older-than must not be negative"), "pending", "--older-than", "-PT1H"),
                mistake("a password in the --store-url query", ExitCode.USAGE,
                        List.of("error: --store-url refused: the URL carries a password", "IDEMPOTENT_STORE_PASSWORD"),
                        "pending", "--store-url", "jdbc:postgresql://127.0.0.1:1/app?user=app&password=" + SECRET),
                mistake("a password in the --store-url user info", ExitCode.USAGE,
                        List.of("error: --store-url refused: the URL carries a password"),
                        "stats", "--store-url", "jdbc:postgresql://app:" + SECRET + "@127.0.0.1:1/app"),
                mistake("a password in the --store-url of schema validate", ExitCode.USAGE,
                        List.of("error: --store-url refused: the URL carries a password", "IDEMPOTENT_STORE_PASSWORD"),
                        "schema", "validate", "--store-url",
                        "jdbc:postgresql://127.0.0.1:1/app?user=app&password=" + SECRET),
                mistake("an --allowed-host that cannot be a Host header", ExitCode.USAGE,
                        List.of("error: --allowed-host must be a host name with an optional port"),
                        "serve", "--allowed-host", "evil.example/path"),
                new Mistake("a console token shorter than 128 bits", Map.of("IDEMPOTENT_CONSOLE_TOKEN", SECRET),
                        ExitCode.USAGE, List.of("error: IDEMPOTENT_CONSOLE_TOKEN is refused: it has 14 characters",
                                "openssl rand -base64 32"), "serve", "--port", "0"),
                mistake("an operator's name with a control character", ExitCode.REFUSED,
                        List.of("error: the operator's name contains the control character U+001B",
                                "nothing was changed"),
                        "settle", "not-applied", EMAIL, LOST_EMAIL, "--reason", "x", "--operator", "al\u001b[2Jice"),
                mistake("an operator's name over 100 characters", ExitCode.REFUSED,
                        List.of("error: the operator's name has 101 characters, more than the 100 allowed"),
                        "settle", "not-applied", EMAIL, LOST_EMAIL, "--reason", "x", "--operator", "o".repeat(101)),
                mistake("an approvals --limit over 1000", ExitCode.USAGE,
                        List.of("error: --limit must be 1 to 1000, was 1001"), "approvals", "--limit", "1001"),
                mistake("an approval without the payload hash", ExitCode.USAGE,
                        List.of("error: Missing required option: '--payload-hash=HASH'",
                                "(see idempotent-cli approve --help)"),
                        "approve", EMAIL, LOST_EMAIL, "--operator", "alice"),
                mistake("an approving operator's name with a control character", ExitCode.REFUSED,
                        List.of("error: the operator's name contains the control character U+001B",
                                "nothing was changed"),
                        "approve", EMAIL, LOST_EMAIL, "--payload-hash", "ab".repeat(32), "--operator",
                        "al\u001b[2Jice"),
                mistake("a settlement that is not well-formed JSON", ExitCode.REFUSED,
                        List.of("error: the settled result is not well-formed JSON (line 2, column",
                                "nothing was changed"),
                        with(settle, "{dir}/malformed.json")),
                mistake("a number settled for a String field", ExitCode.REFUSED,
                        List.of("error: the result does not fit tool send_welcome_email's return type "
                                + EmailReceipt.class.getName(), "at messageId", "String", "nothing was changed"),
                        with(settle, "{dir}/number.json")),
                new Mistake("a misspelt store variable", Map.of("IDEMPOTENT_STORE_URI", "jdbc:h2:mem:typo"),
                        ExitCode.STORE, List.of("error: unknown setting IDEMPOTENT_STORE_URI",
                                "the nearest known one is IDEMPOTENT_STORE_URL"), "stats"),
                new Mistake("a socket timeout that is not a duration", Map.of("IDEMPOTENT_STORE_SOCKET_TIMEOUT", "ten"),
                        ExitCode.STORE, List.of("error: IDEMPOTENT_STORE_SOCKET_TIMEOUT must be a positive ISO-8601"
                                + " duration such as PT5S, was \"ten\""), "show", EMAIL, LOST_EMAIL),
                new Mistake("a zero connect timeout", Map.of("IDEMPOTENT_STORE_CONNECT_TIMEOUT", "PT0S"),
                        ExitCode.STORE, List.of("error: IDEMPOTENT_STORE_CONNECT_TIMEOUT must be a positive ISO-8601"
                                + " duration such as PT5S, was \"PT0S\""), "approvals"),
                new Mistake("a user without a url", Map.of("IDEMPOTENT_STORE_URL", ""), ExitCode.STORE,
                        List.of("error: store default has IDEMPOTENT_STORE_USER, IDEMPOTENT_STORE_PASSWORD but no url"),
                        "stats"),
                // The option the operator typed is named, not the configuration key it became.
                // Issue 43: a misspelt store name, in the option and in the variable's name.
                mistake("a misspelt --store", ExitCode.STORE, List.of("error: store defualt has no url",
                        "the configured stores are default (IDEMPOTENT_STORE_URL)", "did you mean `default`?",
                        "Give --store the name of a configured store"),
                        "stats", "--store", "defualt"),
                new Mistake("a misspelt store in the variable's name", Map.of("IDEMPOTENT_STORE_URL", "",
                        "IDEMPOTENT_STORE_USER", "", "IDEMPOTENT_STORE_PASSWORD", "", "IDEMPOTENT_STORE_DEFALT_URL",
                        "jdbc:h2:mem:typo"), ExitCode.STORE, List.of("error: store default has no url",
                                "the embedded H2 default is used only when no store URL is configured at all",
                                "the configured stores are defalt (IDEMPOTENT_STORE_DEFALT_URL)",
                                "is `defalt` meant to be `default`?"), "stats"),
                new Mistake("--store-user without a url", NO_STORE, ExitCode.USAGE,
                        List.of("error: --store-user needs the URL of the database it is for: give --store-url or"
                                + " IDEMPOTENT_STORE_URL too"), "stats", "--store-user", "bob"),
                new Mistake("a named store's --store-user without a url", NO_STORE, ExitCode.USAGE,
                        List.of("error: --store-user needs the URL of the database it is for: give --store-url or"
                                + " IDEMPOTENT_STORE_BILLING_URL too"),
                        "schema", "validate", "--store", "billing", "--store-user", "bob"),
                // An operator's advice, not the tool caller's "retry the call with the same key".
                mistake("an unreachable store", ExitCode.STORE, List.of("error: could not connect to store"
                        + " \"default\"", "(SQLState 08001). Try again once the store answers",
                        "(cause: Connection refused)"), "stats", "--store-url", "jdbc:postgresql://127.0.0.1:1/app"),
                new Mistake("a wrong password", Map.of("IDEMPOTENT_STORE_PASSWORD", SECRET), ExitCode.STORE,
                        List.of("error: ", "the database refused the user name or password",
                                "Check store.user and store.password"), "stats").on(Stores.H2_FILE),
                // The embedded PostgreSQL trusts every password; a database that is not there shows its cause instead.
                mistake("a database that does not exist", ExitCode.STORE,
                        List.of("error: ", "database \"nowhere_db\" does not exist"),
                        "stats", "--store-url", "{missing-database}").on(Stores.POSTGRESQL));
    }

    private static String[] with(List<String> args, String last) {
        List<String> all = new ArrayList<>(args);
        all.add(last);
        return all.toArray(String[]::new);
    }

    static Stream<Arguments> cases() {
        return Stream.of(Stores.values()).flatMap(kind -> mistakes().stream().filter(m -> m.on().contains(kind))
                .map(m -> Arguments.of(kind, m)));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void isOneErrorLineWithItsExitCodeAndChangesNothing(Stores kind, Mistake mistake) throws Exception {
        Stores.Store store = kind.create(dir);
        ExampleRecords.write(store.url(), store.user(), store.password(), dir.resolve("providers"));
        // Where the mistake is: line 2, after a first line that holds a value of its own.
        Files.writeString(dir.resolve("malformed.json"), "{\"messageId\": \"msg_1\",\n  \"reference\": idem-"
                + SECRET + "}\n");
        Files.writeString(dir.resolve("number.json"), "{\"messageId\": 12345, \"reference\": \"idem:" + LOST_EMAIL
                + "\"}");
        String classes = Path.of(EmailReceipt.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
        Map<String, String> environment = new HashMap<>(store.environment());
        mistake.environment().forEach((name, value) -> {
            if (value.isEmpty()) {
                environment.remove(name);
            } else {
                environment.put(name, value);
            }
        });
        String[] args = Stream.of(mistake.args()).map(a -> a.replace("{classes}", classes)
                .replace("{dir}", dir.toString())
                .replace("{missing-database}", store.url().replaceFirst("/cli_[0-9a-f]+\\?", "/nowhere_db?")))
                .toArray(String[]::new);

        CliProcess.Result result = new CliProcess(environment, dir).run(args);

        assertThat(result.exitCode()).as(result.err()).isEqualTo(mistake.exitCode());
        assertThat(result.err().strip()).as("one line").doesNotContain("\n").startsWith("error: ");
        assertThat(result.err()).contains(mistake.says()).doesNotContain(SECRET).doesNotContain("\tat ")
                .doesNotContain("SQL statement").doesNotContain("12345")
                .as("names no internal key and gives no advice meant for a tool's caller")
                .doesNotContain("idempotent.agent.").doesNotContain("the same key");
        assertThat(result.out()).doesNotContain(SECRET);
        try (IdempotentRuntime runtime = IdempotentRuntime.builder()
                .store("default", store.url(), store.user(), store.password()).build()) {
            assertThat(runtime.operations().find("default", EMAIL, LOST_EMAIL).orElseThrow().status())
                    .isEqualTo(OperationStatus.NEEDS_RECONCILIATION);
        }
    }
}
