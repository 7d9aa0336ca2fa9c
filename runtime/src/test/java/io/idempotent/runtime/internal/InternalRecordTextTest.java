package io.idempotent.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.OperationStatus;
import io.idempotent.runtime.internal.store.AttemptEnd;
import io.idempotent.runtime.internal.store.AttemptRow;
import io.idempotent.runtime.internal.store.ClaimRequest;
import io.idempotent.runtime.internal.store.LostRecord;
import io.idempotent.runtime.internal.store.StoredOperation;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The runtime's internal records that carry a payload, a result, an error or a detail between
 * the engine and the store print none of it: an exception or a log line that quotes one of them
 * (a debugging aid, a {@code requireNonNull} message) must not leak it.
 */
class InternalRecordTextTest {

    private static final String SECRET = "SECRET-5d2b";

    @Test
    void noRecordBetweenTheEngineAndTheStorePrintsStoredData() {
        List<Object> records = List.of(
                new StoredOperation("k:1", "refund", OperationStatus.COMPLETED, "ab".repeat(32),
                        "{\"card\":\"" + SECRET + "\"}", 1, null, false, true, "psp-1", "\"" + SECRET + "\"",
                        "{\"message\":\"" + SECRET + "\"}", 1, null, Instant.EPOCH, Instant.EPOCH, Instant.EPOCH,
                        "a-1", Instant.EPOCH),
                new ClaimRequest("a-1", "k:1", "refund", "ab".repeat(32), "{\"card\":\"" + SECRET + "\"}",
                        Duration.ofSeconds(30), Duration.ofDays(1), true),
                new AttemptRow("a-1", "k:1", "refund", AttemptOutcome.RECONCILED_UNKNOWN, 0, "ab".repeat(32),
                        "psp-1", SECRET, null),
                new AttemptEnd("psp-1", SECRET),
                new LostRecord("refund", "k:1", "ab".repeat(32), "{\"card\":\"" + SECRET + "\"}",
                        OperationStatus.COMPLETED, 1, 1, Duration.ofSeconds(30), Duration.ofDays(1), Duration.ZERO,
                        true, "psp-1", "\"" + SECRET + "\"", "{\"message\":\"" + SECRET + "\"}", "a-1", SECRET),
                new PayloadCodec.CanonicalPayload("{\"card\":\"" + SECRET + "\"}", "ab".repeat(32)),
                new ResultCodec.Checked("\"" + SECRET + "\"", null),
                new Invocation.Replay(SECRET),
                new Call(null, null, "k:1", "ab".repeat(32), "{\"card\":\"" + SECRET + "\"}", "a-1", String.class));
        for (Object record : records) {
            assertThat(record.toString()).as(record.getClass().getSimpleName()).doesNotContain(SECRET)
                    .doesNotContain("abababab");
        }
    }
}
