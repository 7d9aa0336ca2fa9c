package io.idempotent.runtime.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The re-entry mark lets exactly one invocation of exactly its method through, and never outlives it. */
class ReentryTest {

    private static final String CHARGE = "charge(Ljava/lang/String;)Ljava/util/concurrent/CompletableFuture;";
    private static final String OTHER = "other(Ljava/lang/String;)Ljava/util/concurrent/CompletableFuture;";

    @Test
    void theMarkIsTakenOnceAndOnlyByItsOwnMethod() throws Throwable {
        List<Boolean> taken = new ArrayList<>();
        Reentry.run(ReentryTest.class, CHARGE, () -> {
            taken.add(Reentry.take(ReentryTest.class, OTHER));   // another tool method of the class
            taken.add(Reentry.take(String.class, CHARGE));       // the same descriptor in another class
            taken.add(Reentry.take(ReentryTest.class, CHARGE));  // the invocation's own advice
            taken.add(Reentry.take(ReentryTest.class, CHARGE));  // a call of the same tool from its body
            return null;
        });
        assertThat(taken).containsExactly(false, false, true, false);
    }

    @Test
    void anInvocationThatNeverReachedTheAdviceLeavesNoMarkBehind() throws Throwable {
        Reentry.run(ReentryTest.class, CHARGE, () -> null);
        assertThat(Reentry.take(ReentryTest.class, CHARGE)).isFalse();

        IllegalStateException refused = new IllegalStateException("no access");
        assertThatThrownBy(() -> Reentry.run(ReentryTest.class, CHARGE, () -> {
            throw refused;
        })).isSameAs(refused);
        assertThat(Reentry.take(ReentryTest.class, CHARGE)).isFalse();
    }

    @Test
    void theMarkBelongsToItsThread() throws Throwable {
        boolean[] elsewhere = new boolean[1];
        Reentry.run(ReentryTest.class, CHARGE, () -> {
            Thread other = new Thread(() -> elsewhere[0] = Reentry.take(ReentryTest.class, CHARGE));
            other.start();
            other.join();
            return null;
        });
        assertThat(elsewhere[0]).isFalse();
    }
}
