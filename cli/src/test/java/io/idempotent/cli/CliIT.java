package io.idempotent.cli;

import static io.idempotent.cli.ExampleRecords.COMPLETED_REFUND;
import static io.idempotent.cli.ExampleRecords.EMAIL;
import static io.idempotent.cli.ExampleRecords.LOST_EMAIL;
import static io.idempotent.cli.ExampleRecords.LOST_REFUND;
import static io.idempotent.cli.ExampleRecords.REFUND;
import static io.idempotent.cli.ExampleRecords.UNSENT_EMAIL;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.idempotent.examples.tools.EmailReceipt;
import io.idempotent.examples.tools.WelcomeEmailTools_IdempotentTools;
import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.AttemptRecord;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.binding.ToolBinding;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The executable jar run as a process, as an operator runs it, on records that the examples'
 * tools and failures produced, on an H2 file and on PostgreSQL.
 */
class CliIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Stores.Store store;
    private CliProcess cli;

    private void prepare(Stores kind) throws Exception {
        store = kind.create(dir);
        ExampleRecords.write(store.url(), store.user(), store.password(), dir.resolve("providers"));
        cli = new CliProcess(store.environment(), dir);
    }

    private OperationRecord read(String tool, String key) {
        try (IdempotentRuntime runtime = runtime()) {
            return runtime.operations().find("default", tool, key).orElseThrow();
        }
    }

    private IdempotentRuntime runtime() {
        return IdempotentRuntime.builder().store("default", store.url(), store.user(), store.password()).build();
    }

    @ParameterizedTest
    @EnumSource(Stores.class)
    void showIsTheIncidentReviewInTextAndJson(Stores kind) throws Exception {
        prepare(kind);
        CliProcess.Result text = cli.run("show", EMAIL, LOST_EMAIL);
        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(text.out()).contains("Operation send_welcome_email " + LOST_EMAIL, "needs_reconciliation",
                "\"userId\":\"u_1\"", "idem:" + LOST_EMAIL, "NEEDS_RECONCILIATION", "ReplyLostException", "Settlements: none");

        CliProcess.Result json = cli.run("show", EMAIL, LOST_EMAIL, "--json");
        assertThat(json.exitCode()).as(json.err()).isZero();
        JsonNode op = JSON.readTree(json.out());
        assertThat(op.path("tool").asText()).isEqualTo(EMAIL);
        assertThat(op.path("status").asText()).isEqualTo("needs_reconciliation");
        assertThat(op.path("downstreamId").asText()).isEqualTo("idem:" + LOST_EMAIL);
        assertThat(op.path("payload").path("address").asText()).isEqualTo("u1@example.com");
        assertThat(op.path("attemptLog")).hasSize(1);
        assertThat(op.path("attemptLog").get(0).path("outcome").asText()).isEqualTo("NEEDS_RECONCILIATION");

        CliProcess.Result completed = cli.run("show", REFUND, COMPLETED_REFUND, "--json");
        assertThat(JSON.readTree(completed.out()).path("result").path("invoiceId").asText()).isEqualTo("inv_1");
    }

    @ParameterizedTest
    @EnumSource(Stores.class)
    void showPagesTheAttemptLogOfAKeyWithManyAnswers(Stores kind) throws Exception {
        prepare(kind);
        ExampleRecords.replayCompletedRefund(store.url(), store.user(), store.password(), 249);

        CliProcess.Result first = cli.run("show", REFUND, COMPLETED_REFUND);
        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(first.out()).contains("Attempts 1 to 100 of 250, oldest first",
                "150 more: show " + REFUND + " " + COMPLETED_REFUND + " --attempts-offset 100 --attempts-limit 100");
        assertThat(first.out().lines().filter(l -> l.contains("REPLAYED"))).hasSize(99);

        CliProcess.Result last = cli.run("show", REFUND, COMPLETED_REFUND, "--attempts-offset", "200",
                "--attempts-limit", "100");
        assertThat(last.exitCode()).as(last.err()).isZero();
        assertThat(last.out()).contains("Attempts 201 to 250 of 250, oldest first").doesNotContain("more: show");
        assertThat(last.out().lines().filter(l -> l.contains("REPLAYED"))).hasSize(50);

        JsonNode json = JSON.readTree(cli.run("show", REFUND, COMPLETED_REFUND, "--json").out());
        assertThat(json.path("attemptCount").asLong()).isEqualTo(250);
        assertThat(json.path("attemptsOffset").asInt()).isZero();
        assertThat(json.path("nextAttemptsOffset").asInt()).isEqualTo(100);
        assertThat(json.path("attemptLog")).hasSize(100);
        assertThat(json.path("attemptLog").get(0).path("outcome").asText()).isEqualTo("COMPLETED");
        JsonNode tail = JSON.readTree(cli.run("show", REFUND, COMPLETED_REFUND, "--json", "--attempts-offset", "240")
                .out());
        assertThat(tail.path("attemptLog")).hasSize(10);
        assertThat(tail.path("nextAttemptsOffset").isNull()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Stores.class)
    void unknownOperationAndBadUsageAreOneLineErrors(Stores kind) throws Exception {
        prepare(kind);
        CliProcess.Result unknown = cli.run("show", EMAIL, "welcome:nobody:signup-9");
        assertThat(unknown.exitCode()).isEqualTo(ExitCode.REFUSED);
        assertThat(unknown.err().strip()).startsWith("error: no operation welcome:nobody:signup-9 of tool "
                + EMAIL).doesNotContain("\n");
        // Another tool's name never finds this tool's operation: (tool, key) is the identity.
        assertThat(cli.run("show", REFUND, LOST_EMAIL).exitCode()).isEqualTo(ExitCode.REFUSED);

        CliProcess.Result usage = cli.run("settle", "not-applied", EMAIL, UNSENT_EMAIL);
        assertThat(usage.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(usage.err()).contains("--operator", "--reason");
        assertThat(read(EMAIL, UNSENT_EMAIL).status()).isEqualTo(OperationStatus.NEEDS_RECONCILIATION);
    }

    @ParameterizedTest
    @EnumSource(Stores.class)
    void pendingIsTheQueueOldestFirstAndFilters(Stores kind) throws Exception {
        prepare(kind);
        CliProcess.Result all = cli.run("pending", "--json");
        assertThat(all.exitCode()).as(all.err()).isZero();
        JsonNode queue = JSON.readTree(all.out());
        assertThat(queue).extracting(n -> n.path("key").asText()).containsExactly(LOST_REFUND, LOST_EMAIL,
                UNSENT_EMAIL);

        JsonNode emails = JSON.readTree(cli.run("pending", "--tool", EMAIL, "--json").out());
        assertThat(emails).extracting(n -> n.path("key").asText()).containsExactly(LOST_EMAIL, UNSENT_EMAIL);

        CliProcess.Result old = cli.run("pending", "--older-than", "PT1H");
        assertThat(old.exitCode()).as(old.err()).isZero();
        assertThat(old.out()).contains("No operation awaits reconciliation");

        CliProcess.Result text = cli.run("pending");
        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(text.out()).contains(LOST_REFUND, LOST_EMAIL, UNSENT_EMAIL, "3 awaiting reconciliation");
    }

    @ParameterizedTest
    @EnumSource(Stores.class)
    void settleNotAppliedLetsTheNextCallRunAndLogsTheOperator(Stores kind) throws Exception {
        prepare(kind);
        CliProcess.Result settled = cli.run("settle", "not-applied", EMAIL, UNSENT_EMAIL, "--reason",
                "no message with reference idem:" + UNSENT_EMAIL, "--operator", "alice");
        assertThat(settled.exitCode()).as(settled.err()).isZero();
        // The one INFO line a settlement leaves, though the command line shows only warnings otherwise.
        assertThat(settled.err()).contains("INFO: settled " + EMAIL + " " + UNSENT_EMAIL
                + " as not applied by alice (command line)");

        OperationRecord op = read(EMAIL, UNSENT_EMAIL);
        assertThat(op.status()).isEqualTo(OperationStatus.FAILED_SAFE);
        assertThat(op.attemptLog()).extracting(AttemptRecord::outcome).contains(AttemptOutcome.SETTLED_NOT_APPLIED);
        assertThat(op.attemptLog().get(op.attemptLog().size() - 1).detail()).contains("alice");

        CliProcess.Result review = cli.run("show", EMAIL, UNSENT_EMAIL);
        assertThat(review.out()).contains("Settlements", "SETTLED_NOT_APPLIED", "alice");

        // Settling it again is refused: it no longer awaits reconciliation.
        CliProcess.Result again = cli.run("settle", "not-applied", EMAIL, UNSENT_EMAIL, "--reason", "x",
                "--operator", "bob");
        assertThat(again.exitCode()).isEqualTo(ExitCode.REFUSED);
        assertThat(again.err()).contains("failed_safe", "nothing was changed");
    }

    @ParameterizedTest
    @EnumSource(Stores.class)
    void textOutputEscapesEveryControlCharacter(Stores kind) throws Exception {
        prepare(kind);
        // A reason with a terminal's escape sequences (ESC, the one-byte CSI of C1, BEL, DEL), as stored data.
        try (IdempotentRuntime runtime = runtime()) {
            runtime.operations().settleNotApplied("default", EMAIL, UNSENT_EMAIL,
                    "gone\u001b[2J\u009b31m\u0007\u007fend", "alice");
        }
        CliProcess.Result show = cli.run("show", EMAIL, UNSENT_EMAIL);
        assertThat(show.exitCode()).as(show.err()).isZero();
        assertThat(show.out()).contains("gone\\u001B[2J\\u009B31m\\u0007\\u007Fend")
                .doesNotContain("\u001b", "\u009b", "\u0007", "\u007f");

        CliProcess.Result json = cli.run("show", EMAIL, UNSENT_EMAIL, "--json");
        assertThat(json.exitCode()).as(json.err()).isZero();
        assertThat(json.out()).doesNotContain("\u001b", "\u009b", "\u0007", "\u007f");
        assertThat(JSON.readTree(json.out()).path("settlements").get(0).path("detail").asText())
                .contains("gone\u001b[2J\u009b31m\u0007\u007fend");

        CliProcess.Result unknown = cli.run("show", EMAIL, "welcome:\u001b[2J");
        assertThat(unknown.exitCode()).isEqualTo(ExitCode.REFUSED);
        assertThat(unknown.err()).contains("welcome:\\u001B[2J").doesNotContain("\u001b");
    }

    @ParameterizedTest
    @EnumSource(Stores.class)
    void settleAppliedChecksTheResultAgainstTheToolsReturnType(Stores kind) throws Exception {
        prepare(kind);
        String classes = Path.of(EmailReceipt.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
        Path wrong = Files.writeString(dir.resolve("wrong.json"), "{\"id\":\"msg_1\",\"sent\":true}");
        CliProcess.Result refused = cli.run("settle", "applied", EMAIL, LOST_EMAIL, "--result-file", wrong.toString(),
                "--operator", "alice", "--app-classpath", classes);
        assertThat(refused.exitCode()).isEqualTo(ExitCode.REFUSED);
        assertThat(refused.err()).contains("does not fit tool send_welcome_email's return type",
                EmailReceipt.class.getName(), "nothing was changed");
        assertThat(read(EMAIL, LOST_EMAIL).status()).isEqualTo(OperationStatus.NEEDS_RECONCILIATION);

        Path empty = Files.writeString(dir.resolve("null.json"), "null");
        assertThat(cli.run("settle", "applied", EMAIL, LOST_EMAIL, "--result-file", empty.toString(), "--operator",
                "alice", "--app-classpath", classes).exitCode()).isEqualTo(ExitCode.REFUSED);

        Path right = Files.writeString(dir.resolve("receipt.json"),
                "{\"messageId\":\"msg_1\",\"reference\":\"idem:" + LOST_EMAIL + "\"}");
        CliProcess.Result settled = cli.run("settle", "applied", EMAIL, LOST_EMAIL, "--result-file", right.toString(),
                "--operator", "alice", "--app-classpath", classes);
        assertThat(settled.exitCode()).as(settled.err()).isZero();
        assertThat(settled.err()).contains("INFO: settled " + EMAIL + " " + LOST_EMAIL
                + " as applied by alice (command line)").doesNotContain("msg_1");

        // A duplicate now replays the settled result; the body does not run.
        ToolBinding email = new WelcomeEmailTools_IdempotentTools().tools().stream()
                .filter(b -> b.policy().name().equals(EMAIL)).findFirst().orElseThrow();
        try (IdempotentRuntime runtime = runtime(); Step step = Step.begin("signup-1")) {
            EmailReceipt replayed = runtime.call(email, new Object[] {"u_1", "u1@example.com"}, () -> {
                throw new AssertionError("the body ran after the operation was settled as applied");
            });
            assertThat(replayed).isEqualTo(new EmailReceipt("msg_1", "idem:" + LOST_EMAIL));
        }

        // A completed operation cannot be settled.
        CliProcess.Result completed = cli.run("settle", "applied", REFUND, COMPLETED_REFUND, "--result-file",
                right.toString(), "--operator", "alice", "--app-classpath", classes);
        assertThat(completed.exitCode()).isEqualTo(ExitCode.REFUSED);
        assertThat(completed.err()).contains("is completed, not needs_reconciliation");
    }

    @ParameterizedTest
    @EnumSource(Stores.class)
    void statsCountPerToolAndStatus(Stores kind) throws Exception {
        prepare(kind);
        CliProcess.Result json = cli.run("stats", "--json");
        assertThat(json.exitCode()).as(json.err()).isZero();
        JsonNode stats = JSON.readTree(json.out());
        assertThat(stats.path(REFUND).path("completed").asLong()).isEqualTo(1);
        assertThat(stats.path(REFUND).path("needs_reconciliation").asLong()).isEqualTo(1);
        assertThat(stats.path(EMAIL).path("needs_reconciliation").asLong()).isEqualTo(2);
        assertThat(stats.path(EMAIL).path("completed").asLong()).isZero();
        assertThat(cli.run("stats").out()).contains("tool", "needs_reconciliation", REFUND, EMAIL);
    }

    @ParameterizedTest
    @EnumSource(Stores.class)
    void purgeDeletesOnlyFinishedOperationsPastRetentionAndDryRunChangesNothing(Stores kind) throws Exception {
        prepare(kind);
        // The completed refund's retention (P30D) has passed; the uncertain ones' would have too.
        try (Connection c = store.connect(); PreparedStatement ps = c.prepareStatement(
                "UPDATE tool_operations SET expires_at = CURRENT_TIMESTAMP - INTERVAL '1' DAY")) {
            ps.executeUpdate();
        }
        CliProcess.Result dry = cli.run("purge", "--dry-run", "--json");
        assertThat(dry.exitCode()).as(dry.err()).isZero();
        assertThat(JSON.readTree(dry.out()).path("wouldDelete").asInt()).isEqualTo(1);
        assertThat(read(REFUND, COMPLETED_REFUND).status()).isEqualTo(OperationStatus.COMPLETED);

        CliProcess.Result purged = cli.run("purge");
        assertThat(purged.exitCode()).as(purged.err()).isZero();
        assertThat(purged.out()).contains("Deleted 1 finished operation");
        try (IdempotentRuntime runtime = runtime()) {
            assertThat(runtime.operations().find("default", REFUND, COMPLETED_REFUND)).isEmpty();
            assertThat(runtime.operations().find("default", REFUND, LOST_REFUND)).isPresent();
            assertThat(runtime.operations().find("default", EMAIL, LOST_EMAIL)).isPresent();
        }
    }

    @ParameterizedTest
    @EnumSource(Stores.class)
    void schemaPrintValidateCreate(Stores kind) throws Exception {
        store = kind.create(dir);
        cli = new CliProcess(store.environment(), dir);
        CliProcess.Result print = cli.run("schema", "print");
        assertThat(print.exitCode()).isZero();
        assertThat(print.out()).contains("CREATE TABLE IF NOT EXISTS tool_operations");
        // Every migration of the store's database, oldest first, the approval gates' last.
        assertThat(print.out()).containsSubsequence(kind == Stores.POSTGRESQL
                ? List.of("-- V2__idempotent_open_operations.sql", "-- V3__idempotent_approvals.sql")
                : List.of("-- V2__idempotent_approvals.sql"))
                .contains("CREATE TABLE IF NOT EXISTS tool_operation_approvals");

        CliProcess.Result missing = cli.run("schema", "validate");
        assertThat(missing.exitCode()).isEqualTo(ExitCode.STORE);
        assertThat(missing.err()).startsWith("error: ");

        assertThat(cli.run("schema", "create").exitCode()).isZero();
        CliProcess.Result valid = cli.run("schema", "validate");
        assertThat(valid.exitCode()).as(valid.err()).isZero();
        assertThat(valid.out()).contains("valid");
    }
}
