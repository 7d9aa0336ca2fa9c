package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The one rule for a schema mode, which the configuration uses too (see ConfigurationBadInputTest). */
class SchemaModeTest {

    @Test
    void parsesEitherModeInAnyCaseAndNamesTheSettingOfAValueThatIsNeither() {
        assertThat(SchemaMode.parse(" Validate ")).isEqualTo(SchemaMode.VALIDATE);
        assertThat(SchemaMode.parse("idempotent.store.schema", "CREATE")).isEqualTo(SchemaMode.CREATE);
        assertThatThrownBy(() -> SchemaMode.parse("migrate")).isInstanceOf(StoreConfigurationException.class)
                .hasMessageContaining("store.schema must be create or validate, was \"migrate\"");
        assertThatThrownBy(() -> SchemaMode.parse("IDEMPOTENT_STORE_MAIL_SCHEMA", "migrate"))
                .isInstanceOf(StoreConfigurationException.class)
                .hasMessageContaining("IDEMPOTENT_STORE_MAIL_SCHEMA must be create or validate, was \"migrate\"");
    }
}
