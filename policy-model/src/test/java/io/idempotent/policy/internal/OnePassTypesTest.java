package io.idempotent.policy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.policy.internal.OnePassTypes.OnePassType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The one list of one-pass types that the processor and the runtime both refuse as payload: a
 * change to it changes what both refuse, so it is pinned here entry by entry.
 */
class OnePassTypesTest {

    @Test
    void theListIsPinnedInTheRuntimesOrder() {
        assertThat(OnePassTypes.ALL).extracting(OnePassType::className).containsExactly(
                "java.util.Iterator", "java.util.Spliterator", "java.util.Enumeration", "java.util.stream.BaseStream",
                "java.io.InputStream", "java.io.Reader", "java.nio.channels.Channel", "java.nio.file.DirectoryStream");
        assertThat(OnePassTypes.ALL).extracting(OnePassType::words).containsExactly("an Iterator", "a Spliterator",
                "an Enumeration", "a Stream", "an InputStream", "a Reader", "a Channel", "a DirectoryStream");
    }

    @Test
    void everyNameIsAJdkTypeTheRuntimeCanLoadWithoutTheApplicationsClassPath() throws ClassNotFoundException {
        for (OnePassType type : OnePassTypes.ALL) {
            Class<?> loaded = Class.forName(type.className(), false, null);
            assertThat(loaded.getName()).isEqualTo(type.className());
            assertThat(type.words()).as(type.className()).endsWith(loaded.getSimpleName().replace("BaseStream",
                    "Stream"));
        }
    }

    @Test
    void noEntryIsASubtypeOfAnEarlierOneSoEveryEntryCanNameAValue() throws ClassNotFoundException {
        List<OnePassType> all = OnePassTypes.ALL;
        for (int later = 1; later < all.size(); later++) {
            Class<?> type = Class.forName(all.get(later).className(), false, null);
            for (int earlier = 0; earlier < later; earlier++) {
                assertThat(Class.forName(all.get(earlier).className(), false, null).isAssignableFrom(type))
                        .as(all.get(later).className() + " under " + all.get(earlier).className()).isFalse();
            }
        }
    }
}
