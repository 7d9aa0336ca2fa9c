package io.idempotent.policy.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.policy.internal.NotAppliedOnRule.Verdict;
import org.junit.jupiter.api.Test;

/** Which exceptions {@code notAppliedOn} may list: the verdicts at their edges. */
class NotAppliedOnRuleTest {

    @Test
    void theRootsOfEveryCauseAreTooBroad() {
        for (String type : new String[] {"java.lang.Throwable", "java.lang.Exception", "java.lang.RuntimeException",
                "java.lang.Error"}) {
            assertThat(NotAppliedOnRule.judge(type)).as(type).isEqualTo(Verdict.TOO_BROAD);
        }
    }

    @Test
    void failuresThatMayComeAfterTheRequestWasSentAreWarned() {
        for (String type : new String[] {"java.io.IOException", "java.io.UncheckedIOException",
                "java.io.InterruptedIOException", "java.io.EOFException", "java.net.SocketException",
                "java.net.SocketTimeoutException", "java.net.http.HttpTimeoutException"}) {
            assertThat(NotAppliedOnRule.judge(type)).as(type).isEqualTo(Verdict.IO_AFTER_SEND);
        }
    }

    @Test
    void failuresRaisedBeforeSendingAndOwnTypesAreSpecific() {
        for (String type : new String[] {"java.net.ConnectException", "java.net.UnknownHostException",
                "java.net.http.HttpConnectTimeoutException", "com.acme.CardDeclined", "java.lang.IllegalStateException"}) {
            assertThat(NotAppliedOnRule.judge(type)).as(type).isEqualTo(Verdict.SPECIFIC);
        }
    }

    @Test
    void theMessagesNameTheTypeAndWhy() {
        assertThat(NotAppliedOnRule.tooBroad("java.lang.Exception")).startsWith("notAppliedOn lists java.lang.Exception,")
                .contains("a timeout after the request was sent included");
        assertThat(NotAppliedOnRule.ioAfterSend("java.io.IOException"))
                .startsWith("notAppliedOn lists java.io.IOException,")
                .contains("does not prove that nothing happened downstream");
    }
}
