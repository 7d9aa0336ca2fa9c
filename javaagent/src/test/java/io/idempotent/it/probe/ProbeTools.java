package io.idempotent.it.probe;

import io.idempotent.annotations.Approval;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.ManualReview;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The tool the forked JVMs call. Its downstream double is a file in the JVM's working directory
 * with one line per business effect, shared by every JVM the test starts there. The policy is
 * the strictest one (no downstream key, manual review, no automatic retry) so that any outcome
 * the runtime cannot prove ends in reconciliation, never in a second charge.
 */
public class ProbeTools {

    /** The effect file, relative to the working directory. */
    public static final Path EFFECTS = Path.of("effects.log");

    /** Charges {@code amountCents} for {@code orderId}, once per order. */
    @IdempotentTool(key = "charge:{orderId}", downstreamKey = false, reconciler = ManualReview.class,
            retry = Retry.NEVER, lease = "PT2S", name = "probe_charge")
    public String charge(String orderId, long amountCents) {
        recordEffect("charge " + orderId + " " + amountCents);
        ProbeHooks.afterEffect();
        return "charged " + orderId + " " + amountCents + " by pid " + ProcessHandle.current().pid();
    }

    /** Charges {@code amountCents} for {@code orderId} once a person approved it (Approval.REQUIRED). */
    @IdempotentTool(key = "approved_charge:{orderId}", downstreamKey = false, reconciler = ManualReview.class,
            retry = Retry.NEVER, approval = Approval.REQUIRED, name = "probe_approved_charge")
    public String approvedCharge(String orderId, long amountCents) {
        recordEffect("approved charge " + orderId + " " + amountCents);
        return "charged " + orderId + " " + amountCents + " by pid " + ProcessHandle.current().pid();
    }

    /** Appends one business effect to the effect file (also used by the other tools of the forked tests). */
    public static void recordEffect(String line) {
        // Appended under a file lock: the JVMs of one test write to the same file.
        try (FileChannel channel = FileChannel.open(EFFECTS, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND); var lock = channel.lock()) {
            channel.write(ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8)));
            channel.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
