package io.idempotent.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.http.HttpClient;
import java.util.Objects;
import java.util.concurrent.Callable;

/**
 * The injection points of one contract case, handed to the set-up that builds the tool under
 * test. Route the tool's downstream calls through one of them, without changing the tool:
 * <ul>
 *   <li>{@link #httpClient(HttpClient)}: give the tool this JDK {@code HttpClient};
 *   <li>{@link OkHttpFaults#interceptor(Faults)}: add this interceptor to the tool's OkHttp client;
 *   <li>{@link #wrap(Class, Object)}: wrap the tool's client interface;
 *   <li>{@link #around(String, Callable)}: call the client inside it (a subclass or decorator of a
 *       concrete client class);
 *   <li>{@link #providerDouble(ProviderDouble.Mode)}: a recording downstream double.
 * </ul>
 * Each case arms at most one fault, struck by the first downstream call that passes a point.
 */
public final class Faults {

    private final FaultPlan plan;

    Faults(FaultPlan plan) {
        this.plan = plan;
    }

    /**
     * Runs one downstream call: a fault before the send throws without calling {@code call}; a
     * fault after the commit calls it, drops its answer and throws. Transport failures are thrown
     * as {@link UncheckedIOException} around the {@code IOException} a network client would
     * throw ({@code ConnectException}, {@code SocketTimeoutException}, {@code SocketException}).
     *
     * @param downstream a name for the report and the exception message
     * @param call the real call of the client
     * @return what {@code call} returned
     */
    public <R> R around(String downstream, Callable<R> call) {
        Objects.requireNonNull(call, "call");
        try {
            plan.beforeSend(downstream, false);
            R answer = call.call();
            plan.afterCommit(downstream, false);
            return answer;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(downstream + " failed: " + e, e);
        }
    }

    /**
     * Wraps a client interface: every method call is one downstream call. A method that declares
     * {@code IOException} gets the transport exception itself; others get it inside an
     * {@link UncheckedIOException}.
     */
    @SuppressWarnings("unchecked")
    public <C> C wrap(Class<C> clientInterface, C client) {
        Objects.requireNonNull(client, "client");
        if (!clientInterface.isInterface()) {
            throw new IllegalArgumentException(clientInterface.getName() + " is not an interface: wrap a concrete"
                    + " client with a subclass or decorator that calls Faults.around");
        }
        return (C) Proxy.newProxyInstance(clientInterface.getClassLoader(), new Class<?>[] {clientInterface},
                (proxy, method, args) -> {
                    if (method.getDeclaringClass() == Object.class) {
                        return invoke(client, method, args);
                    }
                    String target = clientInterface.getSimpleName() + "." + method.getName();
                    try {
                        plan.beforeSend(target, false);
                        Object answer = invoke(client, method, args);
                        plan.afterCommit(target, false);
                        return answer;
                    } catch (IOException e) {
                        if (declares(method, e)) {
                            throw e;
                        }
                        throw new UncheckedIOException(e);
                    }
                });
    }

    /** A JDK {@code HttpClient} that sends through {@code real}, with this case's faults on every exchange. */
    public HttpClient httpClient(HttpClient real) {
        return new FaultInjectingHttpClient(Objects.requireNonNull(real, "real"), plan);
    }

    /**
     * A downstream double of this case: records requests and effects, deduplicating by the key
     * passed or not, and becomes {@link ProviderDouble#current()} for reconcilers.
     */
    public ProviderDouble providerDouble(ProviderDouble.Mode mode) {
        return ProviderDouble.open(mode, plan);
    }

    /** Before a request leaves (for the kit's adapters). */
    void beforeSend(String target) throws IOException {
        plan.beforeSend(target, false);
    }

    /** After the downstream answered (for the kit's adapters). */
    void afterCommit(String target) throws IOException {
        plan.afterCommit(target, false);
    }

    private static boolean declares(Method method, IOException e) {
        for (Class<?> type : method.getExceptionTypes()) {
            if (type.isInstance(e)) {
                return true;
            }
        }
        return false;
    }

    private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
