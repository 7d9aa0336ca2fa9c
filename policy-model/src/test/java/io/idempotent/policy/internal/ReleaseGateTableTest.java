package io.idempotent.policy.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Counting the tools of a release-gate table by its structure, whatever its layout. */
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
    void eachToolsNameClassMethodAndStoreAreRead() {
        String table = "{\"generatedBy\": \"idempotent-processor\", \"tools\": [\n"
                + "  {\"name\": \"refund\", \"class\": \"a.Tools\", \"method\": \"refund(String id)\","
                + " \"key\": {\"template\": \"r:{id}\"}, \"store\": \"billing\", \"downstreamRetention\": null,"
                + " \"payload\": [\"id\"], \"downstreamKey\": true},\n"
                + "  {\"class\": \"b.Outer.Inner\", \"name\": \"credit\"}]}";
        assertThat(ReleaseGateTable.tools(table)).containsExactly(
                new ReleaseGateTable.Tool("refund", "a.Tools", "refund(String id)", "billing"),
                new ReleaseGateTable.Tool("credit", "b.Outer.Inner", null, StoreNames.DEFAULT));
        assertThat(ReleaseGateTable.tools("{\"tools\": []}")).isEmpty();
    }

    @Test
    void aToolWithoutNameOrClassIsRefused() {
        assertThatThrownBy(() -> ReleaseGateTable.tools("{\"tools\": [{\"name\": \"a\"}]}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tool 0 has no");
        assertThatThrownBy(() -> ReleaseGateTable.tools("{\"name\": \"a\"}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no \"tools\" array");
    }
}
