package io.idempotent.runtime.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class AttemptIdsTest {

    @Test
    void idsAreDistinctUuidsInTheirCanonicalTextForm() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            String id = AttemptIds.next();
            UUID parsed = UUID.fromString(id);
            assertThat(parsed.toString()).isEqualTo(id);
            assertThat(parsed.version()).isEqualTo(4);
            assertThat(parsed.variant()).isEqualTo(2);
            assertThat(seen.add(id)).as("id %s repeated", id).isTrue();
        }
    }
}
