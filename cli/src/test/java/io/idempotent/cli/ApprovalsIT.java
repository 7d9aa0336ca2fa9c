package io.idempotent.cli;

import static io.idempotent.cli.ApprovalRecords.TOOL;
import static io.idempotent.cli.ApprovalRecords.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.idempotent.runtime.ApprovalDeniedException;
import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.AttemptRecord;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.OperationStatus;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code approvals}, {@code approve} and {@code deny}, and how {@code show} tells the approval's
 * history: the executable jar run as a process, as an operator runs it, on approval requests a
 * runtime made, on an H2 file and on PostgreSQL.
 */
class ApprovalsIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Stores.Store store;
    private CliProcess cli;
    private ApprovalRecords records;

    /** A store with three approval requests, for invoices inv_10, inv_11 and inv_12 in that order. */
    private void prepare(Stores kind) throws Exception {
        store = kind.create(dir);
        records = new ApprovalRecords(store);
        records.request("inv_10", "inv_11", "inv_12");
        cli = new CliProcess(store.environment(), dir);
    }

    private OperationRecord read(String invoice) {
        try (IdempotentRuntime runtime = IdempotentRuntime.builder()
                .store("default", store.url(), store.user(), store.password()).build()) {
            return runtime.operations().find("default", TOOL, key(invoice)).orElseThrow();
        }
    }

    private static long count(OperationRecord op, AttemptOutcome outcome) {
        return op.attemptLog().stream().filter(a -> a.outcome() == outcome).count();
    }

    @ParameterizedTest
    @EnumSource(Stores.class)
    void approvalsListsTheQueueOldestFirstPagedWithEachPayloadAndItsWholeHash(Stores kind) throws Exception {
        prepare(kind);
        CliProcess.Result all = cli.run("approvals", "--json");
        assertThat(all.exitCode()).as(all.err()).isZero();
        JsonNode root = JSON.readTree(all.out());
        assertThat(root.path("total").asLong()).isEqualTo(3);
        assertThat(root.path("nextOffset").isNull()).isTrue();
        JsonNode pending = root.path("pending");
        assertThat(pending).extracting(n -> n.path("key").asText()).containsExactly(key("inv_10"), key("inv_11"),
                key("inv_12"));
        JsonNode first = pending.get(0);
        assertThat(first.path("tool").asText()).isEqualTo(TOOL);
        assertThat(first.path("payloadHash").asText()).isEqualTo(read("inv_10").payloadHash()).hasSize(64);
        assertThat(first.path("payload").path("invoiceId").asText()).isEqualTo("inv_10");
        assertThat(first.path("payload").path("amountCents").asLong()).isEqualTo(90_000L);
        assertThat(first.path("step").asText()).isEqualTo("approval-inv_10");
        assertThat(first.path("requestedBy").asText()).contains("@");
        assertThat(first.path("expiredGrant").asBoolean()).isFalse();

        CliProcess.Result page = cli.run("approvals", "--limit", "2");
        assertThat(page.exitCode()).as(page.err()).isZero();
        assertThat(page.out()).contains("Awaiting approval 1 to 2 of 3, the oldest request first", key("inv_10"),
                key("inv_11"), read("inv_10").payloadHash(), "\"amountCents\":90000", "approval-inv_10",
                "1 more: approvals --offset 2 --limit 2", "Decide with: approve|deny TOOL KEY --payload-hash HASH")
                .doesNotContain(key("inv_12"));
        JsonNode rest = JSON.readTree(cli.run("approvals", "--offset", "2", "--json").out());
        assertThat(rest.path("pending")).extracting(n -> n.path("key").asText()).containsExactly(key("inv_12"));
        assertThat(rest.path("offset").asInt()).isEqualTo(2);

        CliProcess.Result other = cli.run("approvals", "--tool", "issue_refund");
        assertThat(other.exitCode()).as(other.err()).isZero();
        assertThat(other.out()).contains("No operation awaits approval for tool issue_refund.");
    }

    /**
     * Issue 48: a payload whose line reads "Refund approved. wire to account 2345-6789" but carries
     * tag characters (outside the Basic Multilingual Plane) and a right-to-left override is shown
     * with both escaped, by {@code approvals} and {@code show}, in text and in {@code --json}; the
     * JSON still reads back as the stored text.
     */
    @Test
    void invisibleAndReorderingCharactersOfAPayloadAreShownEscapedInTextAndJson() throws Exception {
        store = Stores.H2_FILE.create(dir);
        records = new ApprovalRecords(store);
        cli = new CliProcess(store.environment(), dir);
        Map<String, Object> payload = ApprovalRecords.payload("inv_20", 90_000L);
        payload.put("note", ApprovalRecords.HIDDEN_NOTE);
        records.request("inv_20", payload);

        for (String[] command : List.of(new String[] {"approvals"}, new String[] {"show", TOOL, key("inv_20")})) {
            CliProcess.Result text = cli.run(command);
            assertThat(text.exitCode()).as(text.err()).isZero();
            assertThat(text.out()).as(String.join(" ", command)).contains(ApprovalRecords.SHOWN_TAGS,
                    ApprovalRecords.SHOWN_OVERRIDE).doesNotContain(ApprovalRecords.RAW_HIDDEN);

            List<String> withJson = new java.util.ArrayList<>(List.of(command));
            withJson.add("--json");
            CliProcess.Result json = cli.run(withJson.toArray(String[]::new));
            assertThat(json.exitCode()).as(json.err()).isZero();
            assertThat(json.out()).as(String.join(" ", withJson)).contains(ApprovalRecords.JSON_TAGS,
                    ApprovalRecords.SHOWN_OVERRIDE).doesNotContain(ApprovalRecords.RAW_HIDDEN);
            JsonNode root = JSON.readTree(json.out());
            JsonNode shown = command.length == 1 ? root.path("pending").get(0).path("payload") : root.path("payload");
            assertThat(shown.path("note").asText()).isEqualTo(ApprovalRecords.HIDDEN_NOTE);
        }
    }

    @ParameterizedTest
    @EnumSource(Stores.class)
    void approveLetsTheNextCallRunOnceAndShowNamesTheOperatorAndReason(Stores kind) throws Exception {
        prepare(kind);
        String hash = read("inv_10").payloadHash();
        CliProcess.Result approved = cli.run("approve", TOOL, key("inv_10"), "--payload-hash", hash, "--operator",
                "alice", "--reason", "customer called, refund confirmed");
        assertThat(approved.exitCode()).as(approved.err()).isZero();
        assertThat(approved.out()).contains("Granted " + TOOL + " " + key("inv_10") + " by alice");
        // The one INFO line of a decision, with neither the payload nor its hash nor the reason.
        assertThat(approved.err()).contains("INFO: granted " + TOOL + " " + key("inv_10") + " by alice (command line)")
                .doesNotContain(hash, "90000", "customer called");
        assertThat(read("inv_10").status()).isEqualTo(OperationStatus.APPROVED);

        JsonNode queue = JSON.readTree(cli.run("approvals", "--json").out());
        assertThat(queue.path("pending")).extracting(n -> n.path("key").asText()).containsExactly(key("inv_11"),
                key("inv_12"));

        // The granted call runs the body once; the next one replays its result.
        assertThat(records.callAgain("inv_10", 90_000L)).isEqualTo("re_inv_10");
        assertThat(records.callAgain("inv_10", 90_000L)).isEqualTo("re_inv_10");
        assertThat(records.effects.get()).isEqualTo(1);

        CliProcess.Result show = cli.run("show", TOOL, key("inv_10"));
        assertThat(show.exitCode()).as(show.err()).isZero();
        assertThat(show.out()).contains("Approval (request, decisions with the operator and reason, expiries)",
                "APPROVAL_REQUESTED", "APPROVAL_GRANTED", "granted by alice: customer called, refund confirmed",
                "completed");
        JsonNode review = JSON.readTree(cli.run("show", TOOL, key("inv_10"), "--json").out());
        assertThat(review.path("approvals")).extracting(n -> n.path("outcome").asText())
                .containsExactly("APPROVAL_REQUESTED", "APPROVAL_GRANTED");
        assertThat(review.path("approvals").get(1).path("detail").asText())
                .isEqualTo("granted by alice: customer called, refund confirmed");
    }

    @ParameterizedTest
    @EnumSource(Stores.class)
    void denyIsFinalAndShowTellsWhoDeniedIt(Stores kind) throws Exception {
        prepare(kind);
        CliProcess.Result denied = cli.run("deny", TOOL, key("inv_11"), "--payload-hash", read("inv_11").payloadHash(),
                "--operator", "bob", "--reason", "over the quarterly limit");
        assertThat(denied.exitCode()).as(denied.err()).isZero();
        assertThat(denied.out()).contains("Denied " + TOOL + " " + key("inv_11") + " by bob");
        assertThat(denied.err()).contains("INFO: denied " + TOOL + " " + key("inv_11") + " by bob (command line)");

        assertThatThrownBy(() -> records.callAgain("inv_11", 90_000L)).isInstanceOf(ApprovalDeniedException.class);
        assertThat(records.effects.get()).isZero();
        OperationRecord op = read("inv_11");
        assertThat(op.status()).isEqualTo(OperationStatus.DENIED);
        assertThat(count(op, AttemptOutcome.APPROVAL_DENIED)).isEqualTo(1);

        CliProcess.Result show = cli.run("show", TOOL, key("inv_11"));
        assertThat(show.exitCode()).as(show.err()).isZero();
        assertThat(show.out()).contains("denied: every call with the key is answered with the denial",
                "APPROVAL_DENIED", "denied by bob: over the quarterly limit");
    }

    @ParameterizedTest
    @EnumSource(Stores.class)
    void aHashThatIsNotTheStoredOneOrADecidedOperationIsRefusedAndChangesNothing(Stores kind) throws Exception {
        prepare(kind);
        String hash = read("inv_12").payloadHash();
        String other = hash.substring(0, 63) + (hash.charAt(63) == '0' ? '1' : '0');
        CliProcess.Result wrong = cli.run("approve", TOOL, key("inv_12"), "--payload-hash", other, "--operator",
                "alice");
        assertThat(wrong.exitCode()).isEqualTo(ExitCode.REFUSED);
        assertThat(wrong.err().strip()).startsWith("error: grant refused: tool " + TOOL + ": operation "
                + key("inv_12") + ": the payload hash given is not the stored one").endsWith("nothing was changed")
                .doesNotContain("\n", "90000", hash, other);
        assertThat(read("inv_12").status()).isEqualTo(OperationStatus.AWAITING_APPROVAL);

        CliProcess.Result prefix = cli.run("approve", TOOL, key("inv_12"), "--payload-hash", hash.substring(0, 12),
                "--operator", "alice");
        assertThat(prefix.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(prefix.err()).contains("error: --payload-hash refused: the payload hash must be the whole SHA-256"
                + " that the approval queue shows (64 hex digits), not 12 characters");

        assertThat(cli.run("deny", TOOL, key("inv_12"), "--payload-hash", hash, "--operator", "bob").exitCode())
                .isZero();
        // Decided already: neither a grant nor a second denial is recorded.
        CliProcess.Result late = cli.run("approve", TOOL, key("inv_12"), "--payload-hash", hash, "--operator",
                "alice");
        assertThat(late.exitCode()).isEqualTo(ExitCode.REFUSED);
        assertThat(late.err().strip()).startsWith("error: grant refused: tool " + TOOL + ": operation "
                + key("inv_12") + " is denied, not awaiting_approval").endsWith("nothing was changed");
        assertThat(cli.run("deny", TOOL, key("inv_12"), "--payload-hash", hash, "--operator", "bob").exitCode())
                .isEqualTo(ExitCode.REFUSED);
        OperationRecord op = read("inv_12");
        assertThat(op.status()).isEqualTo(OperationStatus.DENIED);
        assertThat(op.attemptLog()).extracting(AttemptRecord::outcome).containsOnlyOnce(AttemptOutcome.APPROVAL_DENIED)
                .doesNotContain(AttemptOutcome.APPROVAL_GRANTED);

        CliProcess.Result unknown = cli.run("approve", TOOL, key("inv_99"), "--payload-hash", hash, "--operator",
                "alice");
        assertThat(unknown.exitCode()).isEqualTo(ExitCode.REFUSED);
        assertThat(unknown.err()).contains("error: grant refused: tool " + TOOL + ": no operation " + key("inv_99"),
                "nothing was changed");
    }
}
