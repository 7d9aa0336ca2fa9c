package io.idempotent.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * One test per release-gate check: a bad input, the message (with its id), the file and the
 * line javac points at.
 */
class ReleaseGateChecksTest {

    private static void assertError(String name, String message, String line) {
        Compilation compilation = Compilations.compile("bad/" + name + ".java");
        JavaFileObject file = JavaFileObjects.forResource("bad/" + name + ".java");
        assertThat(compilation).failed();
        assertThat(compilation).hadErrorCount(1);
        assertThat(compilation).hadErrorContaining(message).inFile(file).onLineContaining(line);
    }

    @Test
    void keyMustNotBeEmpty() {
        assertError("KeyEmpty", "[IdemKeyEmpty] key is empty", "key = \"\"");
    }

    @Test
    void keyBracesMustBalance() {
        assertError("KeyBraces", "[IdemKeyBraces] key \"refund:{invoiceId\" has an unclosed '{' at index 7",
                "key = \"refund:{invoiceId\"");
    }

    @Test
    void keyNeedsAPlaceholder() {
        assertError("KeyConstant", "[IdemKeyConstant] key \"refund\" has no placeholder, so every call of"
                + " KeyConstant.refund would be the same operation", "key = \"refund\"");
    }

    @Test
    void keyPlaceholderMustNameAParameter() {
        assertError("KeyPlaceholder", "[IdemKeyPlaceholder] key \"refund:{invoice}\" names {invoice}, but"
                + " KeyPlaceholder.issueRefund has no parameter invoice (parameters: invoiceId, approvalId",
                "key = \"refund:{invoice}\"");
    }

    @Test
    void keyAccessorMustExistOnTheParameterType() {
        assertError("KeyAccessor", "[IdemKeyAccessor] key \"refund:{invoice.number}:{step}\" names {invoice.number},"
                + " but invoice (bad.KeyAccessor.Invoice) has no accessible record component, getter or public field"
                + " number (available: amountCents, id)", "key = \"refund:{invoice.number}:{step}\"");
    }

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
    void contextPlaceholderNeedsAContextParameter() {
        assertError("ContextMissing", "[IdemContextMissing] key \"refund:{invoiceId}:{context.approvalId}\" names"
                + " {context.approvalId}, but ContextMissing.issueRefund has no framework context parameter",
                "key = \"refund:{invoiceId}:{context.approvalId}\"");
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
    void storeNameMustBeOneTheRuntimeCanConfigure() {
        assertError("StoreNameDotted", "[IdemStoreName] store name \"billing.eu\" cannot be configured",
                "store = \"billing.eu\"");
        assertError("StoreNameEmpty", "[IdemStoreName] a store name must not be empty", "store = \"\"");
    }

    @Test
    void toolNameMustFitTheStoresToolColumn() {
        assertError("ToolNameTooLong", "[IdemToolName] ToolNameTooLong.refund (name \"refund_xxx",
                "name = \"refund_x");
        assertError("ToolNameTooLong", "the tool name has 201 characters, more than the 200 the store's tool column"
                + " takes", "name = \"refund_x");
    }

    @Test
    void downstreamKeyFalseNeedsAReconciler() {
        assertError("NoDownstreamAnswer", "[IdemNoDownstreamAnswer] downstreamKey = false, and no reconciler",
                "downstreamKey = false");
    }

    @Test
    void uncertainRetryNeedsADownstreamKeyOrARealReconciler() {
        assertError("UncertainRetry", "[IdemUncertainRetry] retry = Retry.UNCERTAIN re-runs uncertain calls of"
                + " UncertainRetry.sendWelcome", "retry = Retry.UNCERTAIN");
    }

    @Test
    void downstreamKeyNeedsItsRetention() {
        assertError("DownstreamRetention", "[IdemDownstreamRetention] downstreamKey = true needs downstreamRetention",
                "downstreamKey = true");
    }

    @Test
    void durationsAreIso8601() {
        assertError("BadDuration", "[IdemDuration] lease = \"30 seconds\" is not an ISO-8601 duration",
                "lease = \"30 seconds\"");
    }

    @Test
    void leaseIsPositive() {
        assertError("LeasePositive", "[IdemLeasePositive] lease = \"PT0S\" must be positive", "lease = \"PT0S\"");
    }

    @Test
    void leaseIsShorterThanTheDownstreamRetention() {
        assertError("LeaseVsDownstream", "[IdemLeaseVsDownstream] lease = \"PT2H\" must be shorter than"
                + " downstreamRetention = \"PT1H\"", "lease = \"PT2H\"");
    }

    @Test
    void retentionIsAtLeastTheLease() {
        assertError("RetentionVsLease", "[IdemRetentionVsLease] retention = \"PT10S\" must be at least the lease"
                + " (\"PT30S\")", "retention = \"PT10S\"");
    }

    @Test
    void methodIsNotPrivate() {
        assertError("PrivateMethod", "[IdemMethodShape] @IdempotentTool method PrivateMethod.refund is private",
                "@IdempotentTool(");
    }

    @Test
    void methodIsNotAbstract() {
        assertError("AbstractMethod", "[IdemMethodShape] @IdempotentTool method AbstractMethod.refund is abstract",
                "@IdempotentTool(");
    }

    @Test
    void classCanBeNamedByTheBinding() {
        assertError("PrivateToolClass", "[IdemToolClass] @IdempotentTool method Hidden.refund is declared in the"
                + " private class bad.PrivateToolClass.Hidden", "@IdempotentTool(");
    }

    @Test
    void resultIsNotAStream() {
        assertError("StreamResult", "[IdemResultType] StreamResult.export returns java.io.InputStream, which cannot"
                + " be stored and replayed as JSON", "public java.io.InputStream export");
    }

    @Test
    void resultIsNotRawObject() {
        assertError("ObjectResult", "[IdemResultType] ObjectResult.export returns java.lang.Object",
                "public Object export");
    }

    @Test
    void asyncResultsAreNotSupportedYet() {
        assertError("AsyncResult", "[IdemAsyncResult] AsyncResult.refund returns"
                + " java.util.concurrent.CompletableFuture<java.lang.String>: asynchronous tools are not supported"
                + " yet", "CompletableFuture<String> refund");
    }

    @Test
    void payloadParametersAreData() {
        assertError("PayloadType", "[IdemPayloadType] parameter connection of PayloadType.refund has type"
                + " java.sql.Connection", "java.sql.Connection connection");
    }

    @Test
    void reconcilerIsConcrete() {
        assertError("AbstractReconciler", "[IdemReconcilerClass] reconciler = bad.AbstractReconciler.Base.class is"
                + " not a concrete class", "reconciler = Base.class");
    }

    @Test
    void reconcilerHasAPublicNoArgumentConstructor() {
        assertError("ReconcilerWithoutConstructor", "[IdemReconcilerClass] reconciler ="
                + " bad.ReconcilerWithoutConstructor.Needy.class has no public no-argument constructor",
                "reconciler = Needy.class");
    }

    @Test
    void reconcilerImplementsReconciler() {
        assertError("NotAReconciler", "[IdemReconcilerClass] reconciler = java.lang.String.class does not implement"
                + " io.idempotent.runtime.Reconciler", "reconciler = String.class");
    }

    @Test
    void reconcilerResultFitsTheReturnType() {
        assertError("ReconcilerResult", "[IdemReconcilerResult] reconciler = bad.ReconcilerResult.Strings.class"
                + " produces java.lang.String, which ReconcilerResult.refund (returning bad.ReconcilerResult.Refund)"
                + " cannot return", "reconciler = Strings.class");
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
}
