package io.idempotent.test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The table a person reads: one row per case, per tool. */
final class ContractReport {

    private static final String[] HEADER = {"db", "test", "fault", "requests", "effects", "replays", "final status",
        "expected", "verdict"};

    private ContractReport() {
    }

    static String render(ToolContract<?> contract, List<CaseResult> results) {
        var policy = contract.policy();
        StringBuilder out = new StringBuilder();
        out.append("Contract of tool ").append(policy.name()).append(" (").append(contract.toolClass().getSimpleName())
                .append('.').append(contract.method().getName()).append(") on ").append(contract.downstreamName())
                .append(": downstreamKey = ").append(policy.downstreamKey()).append(", retry = ").append(policy.retry())
                .append(", reconciler = ").append(simpleName(policy.reconcilerName())).append(", effect boundary = ")
                .append(policy.effectBoundary());
        if (policy.approvalRequired()) {
            out.append(", approval = REQUIRED (granted by ").append(CaseRun.APPROVER).append(" before each of tests 1-4,"
                    + " valid ").append(policy.approvalValidity()).append(')');
        }
        out.append('\n');
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        results.stream().sorted(Comparator.comparing(CaseResult::database).thenComparing(CaseResult::test)
                .thenComparing(CaseResult::fault)).forEach(r -> rows.add(new String[] {r.database().name(),
                    r.test().label(), r.fault().label(), Long.toString(r.requests()), Long.toString(r.effects()),
                    Integer.toString(r.replays()), r.status(), r.expected(),
                    r.passed() ? "ok" : "FAILED: " + firstLine(r.failures().get(0))}));
        int[] widths = new int[HEADER.length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length - 1; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        for (String[] row : rows) {
            out.append('|');
            for (int i = 0; i < row.length; i++) {
                out.append(' ').append(i < row.length - 1 ? pad(row[i], widths[i]) : row[i]).append(" |");
            }
            out.append('\n');
        }
        return out.toString();
    }

    private static String simpleName(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }

    private static String firstLine(String failure) {
        return failure.length() > 90 ? failure.substring(0, 90) + "..." : failure;
    }

    private static String pad(String s, int width) {
        return s + " ".repeat(width - s.length());
    }
}
