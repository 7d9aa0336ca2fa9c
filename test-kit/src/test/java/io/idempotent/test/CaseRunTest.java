package io.idempotent.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.annotations.Approval;
import io.idempotent.test.tools.ApprovalTools;
import io.idempotent.runtime.binding.ToolPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The policy a case runs with. */
class CaseRunTest {

    @Test
    void theShortLeaseOfTheDeadWorkerCasesKeepsTheApprovalAndItsValidity() {
        ToolPolicy declared = ToolContract.forTool(ApprovalTools.class, "largeRefund").policy();

        ToolPolicy shortLease = CaseRun.withLease(declared, Duration.ofSeconds(1));

        assertThat(shortLease.lease()).isEqualTo(Duration.ofSeconds(1));
        assertThat(shortLease.approval()).isEqualTo(Approval.REQUIRED);
        assertThat(shortLease.approvalValidity()).isEqualTo(Duration.ofHours(1));
        assertThat(shortLease.name()).isEqualTo(declared.name());
        assertThat(shortLease.downstreamKey()).isEqualTo(declared.downstreamKey());
        assertThat(shortLease.retry()).isEqualTo(declared.retry());
    }

    @Test
    void theShortLeaseKeepsTheTransactionAndTheOutboxDeclaration() {
        ToolPolicy declared = ToolPolicy.builder("ledger_notified").keyTemplate("ledger:{id}").downstreamKey(false)
                .retry(io.idempotent.annotations.Retry.SAFE).transactional(true).outbox("customer-notifications")
                .lease(Duration.ofSeconds(30)).build();

        ToolPolicy shortLease = CaseRun.withLease(declared, Duration.ofSeconds(1));

        assertThat(shortLease.lease()).isEqualTo(Duration.ofSeconds(1));
        assertThat(shortLease.transactional()).isTrue();
        assertThat(shortLease.outbox()).containsExactly("customer-notifications");
    }
}
