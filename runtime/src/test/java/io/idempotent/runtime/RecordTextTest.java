package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The public types that hold a payload, a result, an error or a reconciler's reason print none
 * of them in {@code toString()} (what a log line or a debugger's {@code "" + record} shows): the
 * names, the status and sizes only.
 */
class RecordTextTest {

    private static final String SECRET = "SECRET-9c1e";

    @Test
    void anOperationRecordPrintsNamesStatusAndSizesOnly() {
        ObjectNode payload = new ObjectMapper().createObjectNode().put("card", SECRET + "-payload");
        AttemptRecord attempt = new AttemptRecord("a-1", AttemptOutcome.RECONCILED_UNKNOWN, 0, "psp-77",
                SECRET + "-detail", Instant.EPOCH, Instant.EPOCH);
        OperationRecord record = new OperationRecord("refund:842", "issue_refund", OperationStatus.NEEDS_RECONCILIATION,
                "0f".repeat(32), payload, "psp-77", "{\"id\":\"" + SECRET + "-result\"}",
                "{\"type\":\"x.Y\",\"message\":\"" + SECRET + "-error\"}", 2, 3, null, true, Instant.EPOCH,
                Instant.EPOCH, Instant.EPOCH, List.of(attempt));

        assertThat(record.toString()).contains("issue_refund").contains("refund:842")
                .contains("NEEDS_RECONCILIATION").contains("card").contains("1 entries")
                .doesNotContain(SECRET).doesNotContain("0f0f0f0f");
        assertThat(attempt.toString()).contains("a-1").contains("RECONCILED_UNKNOWN").contains("characters")
                .doesNotContain(SECRET);
    }

    @Test
    void aReconciliationPrintsItsOutcomeNotItsReasonOrResult() {
        assertThat(Reconciliation.unknown(SECRET + " reason").toString()).contains("UNKNOWN").doesNotContain(SECRET);
        assertThat(Reconciliation.notApplied(SECRET).toString()).contains("NOT_APPLIED").doesNotContain(SECRET);
        assertThat(Reconciliation.applied(SECRET + "-result").toString()).contains("APPLIED").doesNotContain(SECRET);
    }
}
