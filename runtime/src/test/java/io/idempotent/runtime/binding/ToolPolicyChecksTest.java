package io.idempotent.runtime.binding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.idempotent.annotations.Approval;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.policy.internal.StoreNames;
import io.idempotent.policy.internal.ToolNames;
import io.idempotent.runtime.ManualReview;
import io.idempotent.runtime.Reconciler;
import io.idempotent.runtime.Reconciliation;
import io.idempotent.runtime.internal.StoreColumns;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A policy built in code passes the same checks as an annotated tool in the release gate. */
class ToolPolicyChecksTest {

    /** A consistent policy: the downstream deduplicates the key and remembers it for a day. */
    private static ToolPolicy.Builder refund() {
        return ToolPolicy.builder("refund").keyTemplate("refund:{invoiceId}:{step}").downstreamKey(true)
                .downstreamRetention(Duration.ofDays(1)).retry(Retry.UNCERTAIN);
    }

    @Test
    void aConsistentPolicyBuildsWithTheAnnotationsDefaults() throws Exception {
        ToolPolicy policy = refund().build();
        assertThat(policy.store()).isEqualTo(IdempotentTool.class.getMethod("store").getDefaultValue())
                .isEqualTo(StoreNames.DEFAULT);
        assertThat(policy.lease()).isEqualTo(Duration.parse((String) IdempotentTool.class.getMethod("lease")
                .getDefaultValue()));
        assertThat(policy.retention()).isEqualTo(Duration.parse((String) IdempotentTool.class.getMethod("retention")
                .getDefaultValue()));
    }

    @Test
    void aTransactionalPolicyIsHeldToTheGatesTransactionalRules() {
        ToolPolicy ledger = ToolPolicy.builder("ledger").keyTemplate("ledger:{id}").downstreamKey(false)
                .retry(Retry.SAFE).transactional(true).build();
        assertThat(ledger.transactional()).isTrue();
        assertThat(ledger.reconciler()).isEmpty();
        assertThatThrownBy(() -> refund().retry(Retry.SAFE).transactional(true).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("transactional = true says the effect is a write in the store's own database");
        assertThatThrownBy(() -> ToolPolicy.builder("ledger").keyTemplate("ledger:{id}").downstreamKey(false)
                .retry(Retry.SAFE).transactional(true).effectBoundary(io.idempotent.annotations.EffectBoundary.MARKED)
                .build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("there is no effect boundary to mark");
    }

    @Test
    void aToolNameLongerThanTheStoresToolColumnIsRefused() {
        String longest = "t".repeat(ToolNames.MAX_LENGTH);
        assertThat(ToolPolicy.builder(longest).keyTemplate("refund:{invoiceId}:{step}").downstreamKey(true)
                .downstreamRetention(Duration.ofDays(1)).retry(Retry.UNCERTAIN).build().name()).isEqualTo(longest);
        assertThatThrownBy(() -> ToolPolicy.builder(longest + "t").keyTemplate("refund:{invoiceId}:{step}")
                .downstreamKey(true).downstreamRetention(Duration.ofDays(1)).retry(Retry.UNCERTAIN).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the tool name has 201 characters, more than the 200");
    }

    @Test
    void aToolNameOfBlanksOrWithAControlCharacterIsRefusedLikeTheGate() {
        assertThatThrownBy(() -> ToolPolicy.builder("   ").keyTemplate("refund:{invoiceId}:{step}").downstreamKey(true)
                .downstreamRetention(Duration.ofDays(1)).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a tool name must not be blank");
        assertThatThrownBy(() -> ToolPolicy.builder("refund\u0000").keyTemplate("refund:{invoiceId}:{step}")
                .downstreamKey(true).downstreamRetention(Duration.ofDays(1)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the tool name contains the control character U+0000")
                .hasMessageNotContaining("\u0000");
    }

    @Test
    void theToolNameLimitIsTheSizeOfTheStoresToolColumn() {
        assertThat(StoreColumns.maxLength("tool")).isEqualTo(ToolNames.MAX_LENGTH);
    }

    @Test
    void aStoreNameTheRuntimeCannotConfigureIsRefused() {
        assertThatThrownBy(() -> refund().store("billing.eu")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"billing.eu\" cannot be configured");
        assertThatThrownBy(() -> refund().store("")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be empty");
        assertThat(refund().store("billing_eu").build().store()).isEqualTo("billing_eu");
    }

    @Test
    void theKeyTemplateFollowsTheGatesRules() {
        assertThatThrownBy(() -> refund().keyTemplate("refund").build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tool refund").hasMessageContaining("has no placeholder");
        assertThatThrownBy(() -> refund().keyTemplate("refund:{invoiceId").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("an unclosed '{'");
        assertThatThrownBy(() -> ToolPolicy.builder("refund").downstreamKey(true)
                .downstreamRetention(Duration.ofDays(1)).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key is empty");
    }

    @Test
    void retryAndTheDownstreamAnswerMustAgree() {
        assertThatThrownBy(() -> refund().downstreamKey(false).downstreamRetention(null).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no reconciler")
                .hasMessageContaining("retry = UNCERTAIN");
        assertThatThrownBy(() -> refund().downstreamKey(false).downstreamRetention(null)
                .reconciler(ManualReview::new, ManualReview.class.getName()).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("retry = UNCERTAIN")
                .hasMessageNotContaining("no reconciler");
        Reconciler<String> asksTheDownstream = operation -> Reconciliation.notApplied("no refund found");
        ToolPolicy reconciled = refund().downstreamKey(false).downstreamRetention(null)
                .reconciler(() -> asksTheDownstream, "RefundReconciler").build();
        assertThat(reconciled.retry()).isEqualTo(Retry.UNCERTAIN);
        assertThatThrownBy(() -> refund().downstreamRetention(null).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs downstreamRetention");
    }

    @Test
    void leaseAndRetentionFollowTheGatesRules() {
        assertThatThrownBy(() -> refund().lease(Duration.ZERO).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lease must be positive");
        assertThatThrownBy(() -> refund().lease(Duration.ofDays(1)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shorter than downstreamRetention");
        assertThatThrownBy(() -> refund().retention(Duration.ofSeconds(10)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("retention must be at least the lease");
    }

    @Test
    void leaseIsAtLeastASecondCountedInMillisecondsLikeTheGate() {
        assertThatThrownBy(() -> refund().lease(Duration.parse("PT0.0004S")).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tool refund")
                .hasMessageContaining("the lease must be at least one second");
        // 999.9 ms is 999 ms to the store.
        assertThatThrownBy(() -> refund().lease(Duration.ofNanos(999_999_999)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one second");
        assertThat(refund().lease(Duration.ofSeconds(1)).build().lease()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void durationsAreAtMostAHundredYearsLikeTheGate() {
        Duration huge = Duration.parse("PT9223372036854775807S");
        assertThatThrownBy(() -> refund().lease(huge).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the lease must be at most 100 years").hasMessageNotContaining("shorter than");
        assertThatThrownBy(() -> refund().retention(huge).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the retention must be at most 100 years");
        assertThatThrownBy(() -> refund().downstreamRetention(huge).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("downstreamRetention must be at most 100 years");
        ToolPolicy longest = refund().retention(Duration.ofDays(36_525)).downstreamRetention(Duration.ofDays(36_525))
                .build();
        assertThat(longest.retention().toMillis()).isEqualTo(36_525L * 24 * 3600 * 1000);
    }

    @Test
    void aDownstreamRetentionWithoutADownstreamKeyIsRefusedLikeTheGate() {
        assertThatThrownBy(() -> refund().downstreamKey(false).retry(Retry.SAFE)
                .reconciler(ManualReview::new, ManualReview.class.getName()).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("downstreamRetention is given but downstreamKey = false")
                .hasMessageContaining("the retention would be dropped");
    }

    @Test
    void anApprovalIsValidForTheAnnotationsDefaultUnlessToldOtherwise() throws Exception {
        ToolPolicy none = refund().build();
        assertThat(none.approval()).isEqualTo(Approval.NONE);
        assertThat(none.approvalRequired()).isFalse();
        ToolPolicy required = refund().approval(Approval.REQUIRED).build();
        assertThat(required.approvalRequired()).isTrue();
        assertThat(required.approvalValidity()).isEqualTo(Duration.parse((String) IdempotentTool.class
                .getMethod("approvalValidity").getDefaultValue()));
        assertThat(refund().approval(Approval.REQUIRED).approvalValidity(Duration.ofHours(4)).build()
                .approvalValidity()).isEqualTo(Duration.ofHours(4));
    }

    @Test
    void anApprovalValidityIsAtLeastASecondAndAtMostAHundredYearsLikeTheGate() {
        assertThatThrownBy(() -> refund().approval(Approval.REQUIRED).approvalValidity(Duration.ofMillis(999))
                .build()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tool refund")
                .hasMessageContaining("approvalValidity must be at least one second");
        assertThatThrownBy(() -> refund().approval(Approval.REQUIRED).approvalValidity(Duration.ofSeconds(-5))
                .build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("approvalValidity must be at least one second");
        assertThatThrownBy(() -> refund().approval(Approval.REQUIRED)
                .approvalValidity(Duration.parse("PT9223372036854775807S")).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("approvalValidity must be at most 100 years");
        assertThat(refund().approval(Approval.REQUIRED).approvalValidity(Duration.ofSeconds(1)).build()
                .approvalValidity()).isEqualTo(Duration.ofSeconds(1));
        assertThat(refund().approval(Approval.REQUIRED).approvalValidity(Duration.ofDays(36_525)).build()
                .approvalValidity()).isEqualTo(Duration.ofDays(36_525));
    }

    @Test
    void anApprovalValidityWithoutApprovalIsRefusedLikeTheGate() {
        assertThatThrownBy(() -> refund().approvalValidity(Duration.ofHours(4)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tool refund")
                .hasMessageContaining("approvalValidity is given but approval = NONE");
        assertThatThrownBy(() -> refund().approval(Approval.REQUIRED).approvalValidity(Duration.ofHours(4))
                .approval(Approval.NONE).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("approvalValidity is given but approval = NONE");
    }

    @Test
    void aPolicyCopiedValueByValueBuildsWithOrWithoutApproval() {
        for (ToolPolicy original : java.util.List.of(refund().build(),
                refund().approval(Approval.REQUIRED).approvalValidity(Duration.ofHours(4)).build())) {
            ToolPolicy copy = refund().approval(original.approval()).approvalValidity(original.approvalValidity())
                    .build();
            assertThat(copy.approval()).isEqualTo(original.approval());
            assertThat(copy.approvalValidity()).isEqualTo(original.approvalValidity());
        }
    }

    @Test
    void notAppliedOnRefusesExceptionsThatEveryFailureIsLikeTheGate() {
        for (Class<? extends Throwable> broad : java.util.List.of(Throwable.class, Exception.class,
                RuntimeException.class, Error.class)) {
            assertThatThrownBy(() -> refund().notAppliedOn(java.util.List.of(IllegalStateException.class, broad))
                    .build()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tool refund")
                    .hasMessageContaining("notAppliedOn lists " + broad.getName())
                    .hasMessageContaining("covers failures of every cause");
        }
        // An I/O exception after send is only a warning at build time: the policy builds.
        assertThat(refund().notAppliedOn(java.util.List.of(java.net.SocketTimeoutException.class,
                java.net.ConnectException.class)).build().notAppliedOn()).hasSize(2);
    }
}
