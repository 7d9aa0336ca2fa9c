package io.idempotent.runtime.agent;

/**
 * The mark that lets exactly one invocation of an asynchronous tool method through the advice
 * without a new claim: the runtime's own, on its executor, after it claimed the key. It is set
 * immediately before that invocation and taken by its enter advice (so a tool the body calls in turn
 * is claimed as usual); {@link #run} clears it in any case, so it never outlives the invocation.
 */
final class Reentry {

    private static final ThreadLocal<Reentry> MARK = new ThreadLocal<>();

    private final Class<?> toolClass;
    private final String methodDescriptor;

    private Reentry(Class<?> toolClass, String methodDescriptor) {
        this.toolClass = toolClass;
        this.methodDescriptor = methodDescriptor;
    }

    /** Something that throws what the tool method throws. */
    interface Invocation {
        Object invoke() throws Throwable;
    }

    /** Runs {@code invocation} (the method itself) with the mark for it set on this thread. */
    static Object run(Class<?> toolClass, String methodDescriptor, Invocation invocation) throws Throwable {
        MARK.set(new Reentry(toolClass, methodDescriptor));
        try {
            return invocation.invoke();
        } finally {
            MARK.remove();
        }
    }

    /** Whether this thread holds the mark for this method; if so it is taken, so it lets one invocation through. */
    static boolean take(Class<?> toolClass, String methodDescriptor) {
        Reentry mark = MARK.get();
        if (mark == null || mark.toolClass != toolClass || !mark.methodDescriptor.equals(methodDescriptor)) {
            return false;
        }
        MARK.remove();
        return true;
    }
}
