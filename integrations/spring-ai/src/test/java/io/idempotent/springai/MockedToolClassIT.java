package io.idempotent.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.Mockito.when;
import static org.mockito.Mockito.withSettings;

import io.idempotent.runtime.MissingBindingException;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.testing.AttachedAgent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mockito.MockMakers;
import org.mockito.Mockito;

/**
 * Mockito mocks of a tool class, with the agent attached: a subclass mock copies the method's
 * annotations, so it is an @IdempotentTool method without a binding; withoutAnnotations() keeps
 * it a plain mock. (No field names the tool class, so the agent attaches before it loads.)
 */
class MockedToolClassIT {

    @BeforeAll
    static void attachTheAgent() throws Exception {
        AttachedAgent.attach();
    }

    @Test
    void aSubclassMockCopiesTheAnnotationAndIsRefusedForWantOfABinding() {
        Object mock = Mockito.mock(CreditTools.class, withSettings().mockMaker(MockMakers.SUBCLASS));
        try (Step ignored = Step.begin("mock-step")) {
            assertThatThrownBy(() -> ((CreditTools) mock).issueCredit("cus_1", 100))
                    .isInstanceOf(MissingBindingException.class);
        }
    }

    @Test
    void aSubclassMockWithoutAnnotationsIsAPlainMock() {
        Object mock = Mockito.mock(CreditTools.class,
                withSettings().mockMaker(MockMakers.SUBCLASS).withoutAnnotations());
        when(((CreditTools) mock).issueCredit(any(), anyLong())).thenReturn(new Refund("stub", "cus_1", 100, "t"));
        assertThat(((CreditTools) mock).issueCredit("cus_1", 100).refundId()).isEqualTo("stub");
    }
}
