package io.idempotent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OperationContext;
import io.idempotent.runtime.OutboxRelay;
import io.idempotent.runtime.binding.ToolPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code outbox}: the undelivered messages with the relay's last known state, and the counts. */
class OutboxIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    static final ToolPolicy LEDGER = ToolPolicy.builder("ledger_entry").keyTemplate("ledger:{invoiceId}")
            .downstreamKey(true).downstreamRetention(Duration.ofDays(1)).payloadParameters(List.of("invoiceId"))
            .outbox("billing-events").build();

    @TempDir
    Path dir;

    // One store: the command reads through the runtime's Outbox, which the runtime's tests run on both databases.
    @ParameterizedTest
    @EnumSource(value = Stores.class, names = "POSTGRESQL")
    void outboxListsTheUndeliveredMessagesWithoutTheirText(Stores kind) throws Exception {
        Stores.Store store = kind.create(dir);
        try (IdempotentRuntime runtime = IdempotentRuntime.builder()
                .store("default", store.url(), store.user(), store.password()).build()) {
            for (String invoice : List.of("inv_1", "inv_2")) {
                runtime.call(LEDGER, "ledger:" + invoice, Map.of("invoiceId", invoice), String.class, () -> {
                    OperationContext.current().send("billing-events", "{\"secret\":\"s3cr3t-" + invoice + "\"}");
                    return "booked";
                });
            }
            // The first message is delivered; the second one's destination refuses it.
            try (OutboxRelay relay = runtime.outbox().relay("default", m -> {
                if (m.operationKey().endsWith("inv_2")) {
                    throw new io.idempotent.runtime.MessageNotDeliveredException("HTTP 503");
                }
            })) {
                relay.deliverDue();
            }
        }
        CliProcess cli = new CliProcess(store.environment(), dir);

        CliProcess.Result json = cli.run("outbox", "--json");
        assertThat(json.exitCode()).as(json.err()).isZero();
        JsonNode root = JSON.readTree(json.out());
        assertThat(root.path("pending").asLong()).isEqualTo(1);
        assertThat(root.path("delivered").asLong()).isEqualTo(1);
        assertThat(root.path("undelivered")).singleElement().satisfies(row -> {
            assertThat(row.path("key").asText()).isEqualTo("ledger:inv_2");
            assertThat(row.path("destination").asText()).isEqualTo("billing-events");
            assertThat(row.path("status").asText()).isEqualTo("pending");
            assertThat(row.path("attempts").asInt()).isEqualTo(1);
            assertThat(row.path("lastState").asText()).isEqualTo("send attempt 1 not delivered: HTTP 503");
        });

        CliProcess.Result text = cli.run("outbox");
        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(text.out()).contains("1 pending, 0 awaiting reconciliation, 1 delivered").contains("ledger:inv_2")
                .doesNotContain("ledger:inv_1").doesNotContain("s3cr3t");
        assertThat(json.out()).doesNotContain("s3cr3t");
    }
}
