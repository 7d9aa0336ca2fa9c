package io.idempotent.agent;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the agent did in this JVM: the tool methods it wrapped and those it made refuse their calls,
 * counted once per class whatever the number of retransformations, and how many transformations
 * failed. The start line, tests and operators read it; a non-zero error count means some tool
 * class could not be wrapped (its calls are refused).
 */
public final class AgentStatus {

    private static final AtomicInteger ERRORS = new AtomicInteger();

    /** Per class (name and loader): {wrapped, refusing, woven at build time} methods of its last transformation. */
    private static final Map<String, int[]> CLASSES = new ConcurrentHashMap<>();

    /** What each transformation under way will count once Byte Buddy reports it done. */
    private static final Map<String, int[]> PLANNED = new ConcurrentHashMap<>();

    private static volatile boolean started;

    /** The tools the tables in the application's packaging list, counted at start. */
    private static volatile int listed;

    private AgentStatus() {
    }

    /** Classes with tool methods that run through the protocol. */
    public static int transformedClasses() {
        return (int) CLASSES.values().stream().filter(c -> c[0] > 0).count();
    }

    /** Tool methods that run through the protocol. */
    public static int wrappedMethods() {
        return CLASSES.values().stream().mapToInt(c -> c[0]).sum();
    }

    /** Tool methods woven at build time, which the agent left alone (they run through the protocol already). */
    public static int wovenMethods() {
        return CLASSES.values().stream().mapToInt(c -> c[2]).sum();
    }

    /** Tool methods that refuse every call (the runtime is not visible, their class could not be wrapped ...). */
    public static int refusingMethods() {
        return CLASSES.values().stream().mapToInt(c -> c[1]).sum();
    }

    /** Whether the agent started in this JVM (its start line was written); the runtime's readiness reads it. */
    public static boolean started() {
        return started;
    }

    /**
     * What the agent made of the class {@code className} (binary name) of {@code loader}:
     * {@code "refusing"} if any of its tool methods refuse every call, else {@code "wrapped"} if
     * it wrapped some, {@code "woven"} if they were woven at build time (left alone), or
     * {@code null} when it did not transform the class. The runtime's {@code ToolReadiness} calls
     * it by reflection (only java types cross the class loaders).
     */
    public static String state(String className, ClassLoader loader) {
        int[] counts = CLASSES.get(key(className, loader));
        if (counts == null) {
            return null;
        }
        return counts[1] > 0 ? "refusing" : counts[0] > 0 ? "wrapped" : counts[2] > 0 ? "woven" : null;
    }

    /**
     * Whether one of the agent's transformations went through the class {@code className} (binary
     * name) of {@code loader}, whatever it made of it; {@link LoadedListedClasses} looks for those
     * no transformation reached.
     */
    static boolean transformed(String className, ClassLoader loader) {
        return CLASSES.containsKey(key(className, loader));
    }

    /** Byte Buddy transformation errors so far. */
    public static int transformationErrors() {
        return ERRORS.get();
    }

    static void error() {
        ERRORS.incrementAndGet();
    }

    /** Before a class is transformed: what it will count if the transformation succeeds. */
    static void planned(String type, ClassLoader loader, int wrapped, int refusing, int woven) {
        PLANNED.put(key(type, loader), new int[] {wrapped, refusing, woven});
    }

    /** A transformation succeeded: its class now counts what was planned for it. */
    static void done(String type, ClassLoader loader) {
        int[] counts = PLANNED.remove(key(type, loader));
        if (counts != null) {
            CLASSES.put(key(type, loader), counts);
            if (started) {
                AgentLog.info(type + ": " + describe(counts[0], counts[1], counts[2])
                        + (listed == 0 ? "" : " (" + (wrappedMethods() + wovenMethods()) + " of the " + listed
                                + " listed tool method(s) run through the protocol now)"));
            }
        }
    }

    /** A transformation failed: nothing of it counts. */
    static void failed(String type, ClassLoader loader) {
        PLANNED.remove(key(type, loader));
    }

    /** The number of listed tools, for the lines of the classes wrapped later. */
    static void listed(int count) {
        listed = count;
    }

    /** From now on each class wrapped later (by its own class loader, or retransformed) has a line of its own. */
    static void markStarted() {
        started = true;
    }

    static String describe(int wrapped, int refusing, int woven) {
        return "wrapped " + wrapped + " tool method(s)" + (woven == 0 ? "" : ", " + woven + " woven at build time")
                + (refusing == 0 ? "" : "; " + refusing
                + " refuse every call (see the ERROR lines)");
    }

    private static String key(String type, ClassLoader loader) {
        return type + "@" + System.identityHashCode(loader);
    }
}
