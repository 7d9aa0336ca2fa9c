package io.idempotent.test;

import java.io.IOException;
import java.util.Objects;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Fault injection for tools that call their downstream with OkHttp: add the interceptor to the
 * tool's client ({@code client.newBuilder().addInterceptor(OkHttpFaults.interceptor(faults))}).
 * A fault before the send fails the call without sending; a fault after the commit sends it,
 * closes the server's answer unread and throws what OkHttp throws for a lost reply.
 * Needs {@code com.squareup.okhttp3:okhttp} on the test class path (the kit does not bring it).
 */
public final class OkHttpFaults {

    private OkHttpFaults() {
    }

    /** An application interceptor that injects the case's faults into every call. */
    public static Interceptor interceptor(Faults faults) {
        Objects.requireNonNull(faults, "faults");
        return chain -> {
            Request request = chain.request();
            String target = request.method() + " " + request.url();
            faults.beforeSend(target);
            Response response = chain.proceed(request);
            try {
                faults.afterCommit(target);
            } catch (IOException | RuntimeException | Error e) {
                response.close();
                throw e;
            }
            return response;
        };
    }
}
