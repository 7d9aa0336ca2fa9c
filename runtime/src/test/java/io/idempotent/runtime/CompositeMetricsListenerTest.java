package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every event of {@link MetricsListener} reaches every listener of a composite, a failing one included. */
class CompositeMetricsListenerTest {

    /** A listener that records the name of each event it is given, and may throw after recording. */
    private static MetricsListener recorder(List<String> events, boolean throwing) {
        return (MetricsListener) Proxy.newProxyInstance(MetricsListener.class.getClassLoader(),
                new Class<?>[] {MetricsListener.class}, (proxy, method, args) -> {
                    if (method.getDeclaringClass() == Object.class) {
                        return method.getName().equals("equals") ? proxy == args[0]
                                : method.getName().equals("hashCode") ? System.identityHashCode(proxy) : "recorder";
                    }
                    events.add(method.getName() + "(" + args[0] + ")");
                    if (throwing) {
                        throw new IllegalStateException("listener broken");
                    }
                    return null;
                });
    }

    private static Object argument(Class<?> type) {
        if (type == String.class) {
            return "refund";
        }
        if (type == Duration.class) {
            return Duration.ofMillis(3);
        }
        if (type == CallOutcome.class) {
            return CallOutcome.AWAITING_APPROVAL;
        }
        if (type == Reconciliation.Outcome.class) {
            return Reconciliation.Outcome.APPLIED;
        }
        if (type == boolean.class) {
            return true;
        }
        throw new AssertionError("no test argument for " + type + ": add one");
    }

    @Test
    void everyEventOfTheInterfaceReachesEveryListenerEvenAfterOneThrows() throws Exception {
        List<String> first = Collections.synchronizedList(new ArrayList<>());
        List<String> second = Collections.synchronizedList(new ArrayList<>());
        MetricsListener composite = MetricsListener.composite(recorder(first, true), recorder(second, false));
        List<String> expected = new ArrayList<>();

        // Read from the interface itself, so an event added to it later is covered without editing this test.
        for (Method event : MetricsListener.class.getMethods()) {
            if (Modifier.isStatic(event.getModifiers())) {
                continue;
            }
            event.invoke(composite, Arrays.stream(event.getParameterTypes()).map(
                    CompositeMetricsListenerTest::argument).toArray());
            expected.add(event.getName() + "(refund)");
        }

        assertThat(expected).contains("approvalRequested(refund)", "approvalGranted(refund)",
                "approvalDenied(refund)", "approvalExpired(refund)", "answered(refund)");
        assertThat(first).containsExactlyElementsOf(expected);
        assertThat(second).containsExactlyElementsOf(expected);
    }
}
