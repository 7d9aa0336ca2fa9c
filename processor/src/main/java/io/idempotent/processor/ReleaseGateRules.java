package io.idempotent.processor;

import io.idempotent.policy.internal.ApprovalRules;
import io.idempotent.policy.internal.NotAppliedOnRule;
import io.idempotent.policy.internal.PolicyRules;
import io.idempotent.policy.internal.TransactionalRules;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;

/**
 * The release gate's answers about retries and approval: the durations parse ({@code [IdemDuration]}); the
 * downstream key, the reconciler, the retry mode, the lease and the retentions answer
 * {@link PolicyRules} (each of its violations is one diagnostic); the approval's validity answers
 * {@link ApprovalRules} ({@code [IdemApprovalValidity]}, {@code [IdemApprovalValidityUnused]},
 * {@code [IdemDurationTooLong]}); and each exception in
 * {@code notAppliedOn} proves that nothing happened ({@code [IdemNotAppliedOnBroad]},
 * {@code [IdemNotAppliedOnIo]}, a warning). The reconciler class itself is
 * {@link ReconcilerRules}'.
 */
final class ReleaseGateRules {

    private final UndefinedTypes undefinedTypes;
    private final Reporter reporter;

    ReleaseGateRules(UndefinedTypes undefinedTypes, Reporter reporter) {
        this.undefinedTypes = undefinedTypes;
        this.reporter = reporter;
    }

    /** Reports durations that do not parse, then every violation of {@link PolicyRules}. */
    void check(ToolAnnotation values, String display, TypeElement reconciler, boolean manualReview,
            TypeMirror asyncReturnType) {
        boolean downstreamKey = values.bool("downstreamKey");
        boolean transactional = values.bool("transactional");
        String retry = values.enumConstant("retry");
        String downstreamRetentionText = values.string("downstreamRetention");
        Duration lease = duration(values, "lease");
        Duration retention = duration(values, "retention");
        Duration downstreamRetention = downstreamRetentionText.isBlank() ? null
                : duration(values, "downstreamRetention");
        PolicyRules.Reconciling reconciling = reconciler == null ? PolicyRules.Reconciling.NONE
                : manualReview ? PolicyRules.Reconciling.MANUAL_REVIEW : PolicyRules.Reconciling.REAL;
        for (PolicyRules.Violation violation : PolicyRules.check(new PolicyRules.Facts(downstreamKey, retry,
                reconciling, !downstreamRetentionText.isBlank(), downstreamRetention, lease, retention,
                transactional))) {
            switch (violation) {
                case NO_DOWNSTREAM_ANSWER -> values.report(Diagnostic.NO_DOWNSTREAM_ANSWER, violation.attribute(),
                        display);
                case UNCERTAIN_RETRY -> values.report(Diagnostic.UNCERTAIN_RETRY, violation.attribute(), display,
                        reconciler == null ? "no reconciler is declared" : "ManualReview only waits for a person");
                case DOWNSTREAM_RETENTION_MISSING -> values.report(Diagnostic.DOWNSTREAM_RETENTION_MISSING,
                        violation.attribute());
                case LEASE_POSITIVE -> values.report(Diagnostic.LEASE_POSITIVE, violation.attribute(),
                        values.string("lease"));
                case LEASE_VS_DOWNSTREAM -> values.report(Diagnostic.LEASE_VS_DOWNSTREAM, violation.attribute(),
                        values.string("lease"), downstreamRetentionText);
                case RETENTION_VS_LEASE -> values.report(Diagnostic.RETENTION_VS_LEASE, violation.attribute(),
                        values.string("retention"), values.string("lease"));
                case LEASE_TOO_SHORT -> values.report(Diagnostic.LEASE_TOO_SHORT, violation.attribute(),
                        values.string("lease"), lease.toMillis());
                case LEASE_TOO_LONG, RETENTION_TOO_LONG, DOWNSTREAM_RETENTION_TOO_LONG -> values.report(
                        Diagnostic.DURATION_TOO_LONG, violation.attribute(), violation.attribute(),
                        values.string(violation.attribute()));
                case DOWNSTREAM_RETENTION_UNUSED -> values.report(Diagnostic.DOWNSTREAM_RETENTION_UNUSED,
                        violation.attribute(), downstreamRetentionText);
            }
        }
        checkApproval(values, display);
        checkTransactional(values, display, reconciler != null, asyncReturnType);
    }

    /** Reports every violation of {@link TransactionalRules}: answers meant for an uncertain effect. */
    private static void checkTransactional(ToolAnnotation values, String display, boolean reconcilerDeclared,
            TypeMirror asyncReturnType) {
        Object notAppliedOn = values.get("notAppliedOn");
        for (TransactionalRules.Violation violation : TransactionalRules.check(new TransactionalRules.Facts(
                values.bool("transactional"), values.bool("downstreamKey"), reconcilerDeclared,
                notAppliedOn instanceof List<?> list && !list.isEmpty(),
                "MARKED".equals(values.enumConstant("effectBoundary")),
                "REQUIRED".equals(values.enumConstant("approval")), asyncReturnType != null))) {
            String attribute = violation.attribute();
            switch (violation) {
                case DOWNSTREAM_KEY -> values.report(Diagnostic.TRANSACTIONAL_DOWNSTREAM_KEY, attribute, display,
                        violation.description());
                case RECONCILER -> values.report(Diagnostic.TRANSACTIONAL_RECONCILER, attribute, display,
                        violation.description());
                case NOT_APPLIED_ON -> values.report(Diagnostic.TRANSACTIONAL_NOT_APPLIED_ON, attribute, display,
                        violation.description());
                case EFFECT_BOUNDARY -> values.report(Diagnostic.TRANSACTIONAL_BOUNDARY, attribute, display,
                        violation.description());
                case APPROVAL -> values.report(Diagnostic.TRANSACTIONAL_APPROVAL, attribute, display,
                        violation.description());
                case ASYNC -> values.report(Diagnostic.TRANSACTIONAL_ASYNC, attribute, display, asyncReturnType,
                        violation.description());
            }
        }
    }

    /** Reports an approval validity that does not parse, then every violation of {@link ApprovalRules}. */
    private static void checkApproval(ToolAnnotation values, String display) {
        boolean required = "REQUIRED".equals(values.enumConstant("approval"));
        String text = values.string("approvalValidity");
        Duration validity = duration(values, "approvalValidity");
        boolean custom = validity != null && !validity.equals(Duration.parse(
                String.valueOf(values.defaultOf("approvalValidity")).strip()));
        for (ApprovalRules.Violation violation : ApprovalRules.check(new ApprovalRules.Facts(required, custom,
                validity))) {
            switch (violation) {
                case VALIDITY_UNUSED -> values.report(Diagnostic.APPROVAL_VALIDITY_UNUSED, violation.attribute(), text,
                        display);
                case VALIDITY_TOO_SHORT -> values.report(Diagnostic.APPROVAL_VALIDITY, violation.attribute(), text,
                        // toMillis() of a very negative duration overflows
                        validity.isNegative() ? "negative" : validity.toMillis() + " ms as the store counts it");
                case VALIDITY_TOO_LONG -> values.report(Diagnostic.DURATION_TOO_LONG, violation.attribute(),
                        violation.attribute(), text);
            }
        }
    }

    /** Reports each exception of {@code notAppliedOn} that is not specific; returns them all. */
    List<TypeElement> notAppliedOn(ToolAnnotation values, String display) {
        List<TypeElement> notAppliedOn = new ArrayList<>();
        Object declared = values.get("notAppliedOn");
        if (declared instanceof List<?> list) {
            for (Object item : list) {
                AnnotationValue position = item instanceof AnnotationValue av ? av : null;
                Object v = position != null ? position.getValue() : item;
                if (v instanceof DeclaredType type) {
                    notAppliedOn.add((TypeElement) type.asElement());
                    checkNotAppliedOn(values, type, position, display);
                }
            }
        }
        return notAppliedOn;
    }

    /** An exception in notAppliedOn is taken as proof that nothing happened: it must be specific. */
    private void checkNotAppliedOn(ToolAnnotation values, DeclaredType type, AnnotationValue position,
            String display) {
        if (undefinedTypes.reportIfUndefined(type, "notAppliedOn", display, values.element, values.mirror,
                position)) {
            return;
        }
        String name = ((TypeElement) type.asElement()).getQualifiedName().toString();
        switch (NotAppliedOnRule.judge(name)) {
            case TOO_BROAD -> reporter.report(Diagnostic.NOT_APPLIED_ON_BROAD, values.element, values.mirror, position,
                    name, display);
            case IO_AFTER_SEND -> reporter.report(Diagnostic.NOT_APPLIED_ON_IO, values.element, values.mirror,
                    position, name, display);
            case SPECIFIC -> {
            }
        }
    }

    private static Duration duration(ToolAnnotation values, String attribute) {
        try {
            return Duration.parse(values.durationText(attribute));
        } catch (DateTimeParseException e) {
            values.report(Diagnostic.DURATION, attribute, attribute, values.string(attribute));
            return null;
        }
    }
}
