package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.jsontype.impl.LaissezFaireSubTypeValidator;
import io.idempotent.runtime.testing.CapturedLog;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A mapper with Jackson's default typing reads class names out of stored results: whoever can
 * write to the store chooses which classes the application instantiates. The runtime still
 * starts (the application chose the mapper), and says so once, with the fix.
 */
class DefaultTypingWarningTest {

    private static List<String> typingWarnings(ObjectMapper mapper) {
        try (CapturedLog log = new CapturedLog();
                IdempotentRuntime runtime = IdempotentRuntime.builder()
                        .store("default", "jdbc:h2:mem:typing" + UUID.randomUUID().toString().replace("-", "")
                                + ";DB_CLOSE_DELAY=-1", "sa", "")
                        .objectMapper(mapper).build()) {
            return log.lines().stream().filter(line -> line.contains("default typing")).toList();
        }
    }

    @Test
    void aMapperWithDefaultTypingGetsOneWarningNamingTheRiskAndTheFix() {
        ObjectMapper typing = JsonMapper.builder()
                .activateDefaultTyping(LaissezFaireSubTypeValidator.instance, ObjectMapper.DefaultTyping.NON_FINAL)
                .build();
        List<String> warnings = typingWarnings(typing);
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0)).startsWith("WARNING").contains("objectMapper").contains("class names")
                .contains("@JsonTypeInfo");
    }

    @Test
    void aMapperWithTheLegacyDefaultTypingIsWarnedAboutToo() {
        @SuppressWarnings("deprecation")
        ObjectMapper legacy = new ObjectMapper().enableDefaultTyping();
        assertThat(typingWarnings(legacy)).hasSize(1);
    }

    @Test
    void aPlainMapperGetsNoWarning() {
        assertThat(typingWarnings(JsonMapper.builder().findAndAddModules().build())).isEmpty();
    }
}
