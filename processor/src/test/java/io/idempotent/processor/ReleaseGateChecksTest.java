package io.idempotent.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * The release-gate checks that need more than one bad input file and one error: framework context
 * types, warnings, duplicates across tools and many problems in one run. Every other bad input is
 * one row of {@link BadInputTest}.
 */
class ReleaseGateChecksTest {
    private static void assertError(String name, String message, String line, String... frameworks) {
        String[] resources = new String[frameworks.length + 1];
        resources[0] = "bad/" + name + ".java";
        System.arraycopy(frameworks, 0, resources, 1, frameworks.length);
        Compilation compilation = Compilations.compile(resources);
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorCount(1);
        assertThat(compilation).hadErrorContaining(message).inFile(JavaFileObjects.forResource(resources[0]))
                .onLineContaining(line);
    }

    @Test
    void contextPlaceholderNeedsExactlyOneContextParameter() {
        assertError("ContextAmbiguous", "[IdemContextAmbiguous] key \"refund:{invoiceId}:{context.approvalId}\""
                + " names {context.approvalId}, but ContextAmbiguous.issueRefund has 2 framework context parameters"
                + " with entries (toolContext, parameters)", "key = \"refund:{invoiceId}:{context.approvalId}\"",
                "frameworks/ToolContext.java", "frameworks/InvocationParameters.java");
    }

    @Test
    void contextTypeOfAnUnsupportedVersionIsReported() {
        assertError("ContextType", "[IdemContextType] parameter toolContext of ContextType.issueRefund is a framework"
                + " context (org.springframework.ai.chat.model.ToolContext), but this version of it has no"
                + " getContext()", "ToolContext toolContext", "oldframeworks/ToolContext.java");
    }

    @Test
    void keyMadeOfEveryParameterIsAWarning() {
        Compilation compilation = Compilations.compile("bad/KeyCollapses.java");
        assertThat(compilation).succeeded();
        assertThat(compilation).hadWarningCount(1);
        assertThat(compilation).hadWarningContaining("[IdemKeyCollapses] key \"refund:{invoiceId}:{amountCents}\""
                + " is made of every parameter of KeyCollapses.refund and nothing else: two legitimate identical"
                + " requests would collapse into one; add a decision identity such as {step} or an approval id")
                .inFile(JavaFileObjects.forResource("bad/KeyCollapses.java"))
                .onLineContaining("key = \"refund:{invoiceId}:{amountCents}\"");
    }

    @Test
    void anMcpIdempotentHintThatContradictsTheKeyIsAWarning() {
        Compilation compilation = Compilations.compile("bad/McpHintContradicts.java", "frameworks/McpTool.java");
        assertThat(compilation).succeeded();
        assertThat(compilation).hadWarningCount(2);
        assertThat(compilation).hadWarningContaining("[IdemMcpHint] McpHintContradicts.refund says"
                + " @McpAnnotations(idempotentHint = true), but its key \"refund:{invoiceId}:{step}\" uses {step}")
                .inFile(JavaFileObjects.forResource("bad/McpHintContradicts.java"))
                .onLineContaining("idempotentHint = true");
        assertThat(compilation).hadWarningContaining("[IdemMcpHint] McpHintContradicts.credit says"
                + " @McpAnnotations(idempotentHint = false), but its key \"credit:{invoiceId}\" is built from the"
                + " arguments alone").inFile(JavaFileObjects.forResource("bad/McpHintContradicts.java"))
                .onLineContaining("idempotentHint = false");
    }

    @Test
    void theDefaultApprovalValidityWrittenOnAToolWithoutApprovalIsAccepted() {
        // Only another validity than the default is refused (IdemApprovalValidityUnused, a row of
        // BadInputTest): the default changes nothing, as ToolPolicy.Builder accepts it from a copied policy.
        assertThat(Compilations.compile("bad/ApprovalValidityDefaultUnused.java")).succeededWithoutWarnings();
    }

    @Test
    void aPackagePrivateReconcilerBesideItsToolAndAVoidReconcilerOfAVoidToolAreAccepted() {
        assertThat(Compilations.compile("good/Reconcilers.java")).succeededWithoutWarnings();
    }

    @Test
    void toolNamesAreUniquePerStore() {
        Compilation compilation = Compilations.compile("bad/DuplicateName.java");
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorCount(1);
        assertThat(compilation).hadErrorContaining("[IdemDuplicateName] tool name \"refund\" is already used in store"
                + " \"default\" by bad.DuplicateName.refund").inFile(JavaFileObjects.forResource("bad/DuplicateName.java"))
                .onLine(14);
    }

    @Test
    void everyProblemOfACompilationIsReportedInOneRun() {
        Compilation compilation = Compilations.compile("bad/ManyProblems.java", "bad/KeyEmpty.java");
        JavaFileObject many = JavaFileObjects.forResource("bad/ManyProblems.java");
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorCount(6);
        assertThat(compilation).hadErrorContaining("[IdemKeyPlaceholder]").inFile(many)
                .onLineContaining("key = \"refund:{invoice}\"");
        assertThat(compilation).hadErrorContaining("[IdemDownstreamRetention]").inFile(many)
                .onLineContaining("key = \"refund:{invoice}\", downstreamKey = true");
        assertThat(compilation).hadErrorContaining("[IdemDuration] lease = \"thirty seconds\"").inFile(many)
                .onLineContaining("lease = \"thirty seconds\"");
        assertThat(compilation).hadErrorContaining("[IdemNoDownstreamAnswer]").inFile(many)
                .onLineContaining("downstreamKey = false");
        assertThat(compilation).hadErrorContaining("[IdemUncertainRetry]").inFile(many)
                .onLineContaining("retry = Retry.UNCERTAIN");
        assertThat(compilation).hadErrorContaining("[IdemKeyEmpty]")
                .inFile(JavaFileObjects.forResource("bad/KeyEmpty.java")).onLineContaining("key = \"\"");
    }

    @Test
    void oneToolsProblemsAreReportedFamilyByFamilyInOneOrder() {
        Compilation compilation = Compilations.compile("bad/EveryFamily.java", "frameworks/ToolContext.java",
                "frameworks/InvocationParameters.java");
        assertThat(compilation).failed();
        Pattern id = Pattern.compile("^\\[(Idem\\w+)]");
        List<String> reported = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> error : compilation.errors()) {
            Matcher m = id.matcher(error.getMessage(Locale.ROOT));
            if (m.find()) {
                reported.add(m.group(1) + " line " + error.getLineNumber());
            }
        }
        // The method's shape; each parameter in turn (its type defined, its payload); the key with
        // its step and context sources; the result; the reconciler; the durations and the retry
        // gate; notAppliedOn; the store's and the tool's names.
        assertThat(reported).containsExactly(
                "IdemMethodShape line 10",
                "IdemPayloadType line 19",
                "IdemTypeUndefined line 20",
                "IdemKeyPlaceholder line 10",
                "IdemKeyAccessor line 10",
                "IdemStepParameter line 19",
                "IdemContextAmbiguous line 10",
                "IdemContextAmbiguous line 10",
                "IdemResultType line 19",
                "IdemReconcilerClass line 13",
                "IdemDuration line 14",
                "IdemDurationTooLong line 15",
                "IdemNotAppliedOnBroad line 16",
                "IdemStoreName line 17",
                "IdemToolName line 18");
    }
}
