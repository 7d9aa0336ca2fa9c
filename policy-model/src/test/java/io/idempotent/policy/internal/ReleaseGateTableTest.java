package io.idempotent.policy.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading the tools of a release-gate table by its structure, whatever its layout. */
class ReleaseGateTableTest {

    @Test
    void toolsAreCountedByStructureNotByIndentation() {
        String pretty = "{\n  \"generatedBy\": \"idempotent-processor\",\n  \"tools\": [\n    {\n      \"name\": \"a\","
                + " \"key\": {\"template\": \"a:{id}\"}, \"notAppliedOn\": [\"x.Y\"], \"downstreamKey\": true},\n"
                + "    {\"name\": \"b \\\"quoted\\\" }]\", \"lease\": null, \"n\": -1.5e3}\n  ]\n}\n";
        assertThat(ReleaseGateTable.countTools(pretty)).isEqualTo(2);
        String oneLine = "{\"tools\":[{\"name\":\"a\"},{\"name\":\"b\"},{\"name\":\"c\"}],\"generatedBy\":\"x\"}";
        assertThat(ReleaseGateTable.countTools(oneLine)).isEqualTo(3);
        assertThat(ReleaseGateTable.countTools("{\"tools\": []}")).isZero();
    }

    @Test
    void somethingElseIsRefused() {
        assertThatThrownBy(() -> ReleaseGateTable.countTools("{\"name\": \"a\"}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no \"tools\" array");
        assertThatThrownBy(() -> ReleaseGateTable.countTools("{\"tools\": [}"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void eachToolNamesItsClassAndMethodWhateverTheOtherFieldsHold() {
        String json = "{\"generatedBy\": \"x\", \"tools\": [\n"
                + "  {\"name\": \"issue_refund\", \"key\": {\"template\": \"r:{id}\"}, \"class\": \"good.BillingTools\","
                + " \"method\": \"issueRefund(good.BillingTools.Invoice invoice, java.lang.String trace)\","
                + " \"payload\": [\"invoice\"], \"downstreamRetention\": null},\n"
                + "  {\"method\": \"ping()\", \"class\": \"a.B.C\", \"name\": \"ping \\\"x\\\"\"}]}";
        assertThat(ReleaseGateTable.tools(json)).containsExactly(
                new ListedTool("issue_refund", "good.BillingTools", "issueRefund(good.BillingTools.Invoice invoice,"
                        + " java.lang.String trace)"),
                new ListedTool("ping \"x\"", "a.B.C", "ping()"));
        assertThat(ReleaseGateTable.tools("{\"tools\": []}")).isEmpty();
        assertThatThrownBy(() -> ReleaseGateTable.tools("{\"tools\": [{\"name\": \"a\", \"class\": \"b.C\"}]}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not name its");
        assertThatThrownBy(() -> ReleaseGateTable.tools("{\"tools\": [\"a\"]}"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ReleaseGateTable.tools("{\"name\": \"a\"}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no \"tools\" array");
    }

    @Test
    void parameterTypesAreErasedToTheNamesTheJvmMatches() {
        ListedTool tool = new ListedTool("t", "a.B", "statement(java.lang.String customerId,"
                + " java.util.Map<java.lang.String,java.util.List<java.lang.Integer>> filters, int[] counts,"
                + " java.lang.String... tags, T item, java.util.List<? extends T>[] lists,"
                + " java.lang.@org.x.NonNull(when = \"a, b\") String note, @org.x.Tag long id,"
                + " a.B.Outer<java.lang.String>.Inner inner)");
        assertThat(tool.methodName()).isEqualTo("statement");
        assertThat(tool.parameterTypes()).containsExactly("java.lang.String", "java.util.Map", "int[]",
                "java.lang.String[]", "T", "java.util.List[]", "java.lang.String", "long", "a.B.Outer.Inner");
        assertThat(new ListedTool("t", "a.B", "none()").parameterTypes()).isEqualTo(List.of());
        assertThatThrownBy(() -> new ListedTool("t", "a.B", "broken").parameterTypes())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not name(parameters)");
    }

    @Test
    void eachToolsStoreIsReadAndTheDefaultStoreWhenAbsent() {
        String table = "{\"generatedBy\": \"idempotent-processor\", \"tools\": [\n"
                + "  {\"name\": \"refund\", \"class\": \"a.Tools\", \"method\": \"refund(String id)\","
                + " \"key\": {\"template\": \"r:{id}\"}, \"store\": \"billing\", \"downstreamRetention\": null,"
                + " \"payload\": [\"id\"], \"downstreamKey\": true},\n"
                + "  {\"class\": \"b.Outer.Inner\", \"method\": \"credit()\", \"name\": \"credit\"}]}";
        assertThat(ReleaseGateTable.tools(table)).containsExactly(
                new ListedTool("refund", "a.Tools", "refund(String id)", "billing"),
                new ListedTool("credit", "b.Outer.Inner", "credit()", StoreNames.DEFAULT));
    }
}
