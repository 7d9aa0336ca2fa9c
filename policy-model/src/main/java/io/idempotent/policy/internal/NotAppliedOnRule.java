package io.idempotent.policy.internal;

import java.util.Set;

/**
 * Which exceptions {@code notAppliedOn} may list. An exception there is taken as proof that the
 * downstream did nothing, so the operation is retried as if it never ran; only a failure raised
 * before the request could leave proves that. The processor reports a verdict on the annotation
 * value; {@code ToolPolicy.Builder} refuses {@link Verdict#TOO_BROAD} and logs
 * {@link Verdict#IO_AFTER_SEND}. Not for users.
 */
public final class NotAppliedOnRule {

    /** What listing an exception type in {@code notAppliedOn} says. */
    public enum Verdict {
        /** A specific exception; the tool's author vouches that it proves nothing happened. */
        SPECIFIC,
        /** It covers failures of every cause, a timeout after the request was sent included: an error. */
        TOO_BROAD,
        /**
         * An I/O failure that may happen after the request was written (a timeout, a reset
         * connection, a lost reply): a warning, since a client may raise it only before sending.
         */
        IO_AFTER_SEND
    }

    private static final Set<String> TOO_BROAD = Set.of("java.lang.Throwable", "java.lang.Exception",
            "java.lang.RuntimeException", "java.lang.Error");

    /**
     * {@code IOException} itself, its unchecked wrapper, and the subclasses that transports raise
     * while a reply is awaited. Not listed, because they are raised before anything is sent:
     * {@code ConnectException}, {@code UnknownHostException}, {@code NoRouteToHostException},
     * {@code HttpConnectTimeoutException}, {@code MalformedURLException}, {@code FileNotFoundException}.
     */
    private static final Set<String> IO_AFTER_SEND = Set.of("java.io.IOException", "java.io.UncheckedIOException",
            "java.io.InterruptedIOException", "java.io.EOFException", "java.net.SocketException",
            "java.net.SocketTimeoutException", "java.net.http.HttpTimeoutException");

    private NotAppliedOnRule() {
    }

    /** Why listing {@code qualifiedName} is refused, for a policy built in code (no tool name in it). */
    public static String tooBroad(String qualifiedName) {
        return "notAppliedOn lists " + qualifiedName + ", which covers failures of every cause, a timeout after the"
                + " request was sent included: each would be taken as proof that nothing happened and run again;"
                + " list only the exceptions that prove the downstream did nothing";
    }

    /** Why listing {@code qualifiedName} deserves a warning. */
    public static String ioAfterSend(String qualifiedName) {
        return "notAppliedOn lists " + qualifiedName + ", but an I/O failure after the request was written (a"
                + " timeout, a reset connection, a lost reply) does not prove that nothing happened downstream";
    }

    /** The verdict on listing the exception class {@code qualifiedName} (exact type, not its subclasses). */
    public static Verdict judge(String qualifiedName) {
        if (TOO_BROAD.contains(qualifiedName)) {
            return Verdict.TOO_BROAD;
        }
        return IO_AFTER_SEND.contains(qualifiedName) ? Verdict.IO_AFTER_SEND : Verdict.SPECIFIC;
    }
}
