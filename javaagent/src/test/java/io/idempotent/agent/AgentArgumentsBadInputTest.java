package io.idempotent.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Agent arguments that are refused, one row each: the message names the argument and, for an
 * unknown key, the nearest known one. A refused argument makes every tool refuse its calls
 * ({@code AgentInstaller.start}, and the forked {@code ConfigurationMistakeIT}).
 */
class AgentArgumentsBadInputTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            store.ulr=jdbc:h2:mem:x                  | agent argument store.ulr is not a setting of the agent | the nearest known one is store.url
            store.billing.ulr=jdbc:h2:mem:x          | agent argument store.billing.ulr                       | the nearest known one is store.billing.url
            store.conect.timeout=PT5S                | agent argument store.conect.timeout                    | the nearest known one is store.connect.timeout
            failOnMissingRuntim=true                 | agent argument failOnMissingRuntim                     | the nearest known one is failOnMissingRuntime
            failOnMissingRuntime=yes                 | agent argument failOnMissingRuntime                    | must be true or false, was "yes"
            failOnMissingRuntime=1                   | agent argument failOnMissingRuntime                    | must be true or false, was "1"
            failOnMissingRuntime=                    | agent argument failOnMissingRuntime                    | must be true or false, was ""
            """)
    void isRefusedNamingTheArgument(String arguments, String names, String says) {
        assertThatThrownBy(() -> AgentArguments.parse(arguments)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(names).hasMessageContaining(says);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            failOnMissingRuntime=true  | true
            failOnMissingRuntime=TRUE  | true
            failOnMissingRuntime=False | false
            store.url=jdbc:h2:mem:x    | false
            """)
    void aFlagIsTrueOrFalseInAnyCase(String arguments, boolean flag) {
        assertThat(AgentArguments.parse(arguments).flag("failOnMissingRuntime")).isEqualTo(flag);
    }
}
