package io.idempotent.policy.internal;

/**
 * The name of the binding class the processor generates for a tool class, which the runtime loads
 * and the agent looks for: the binding of {@code com.acme.Tools$Refunds} is
 * {@code com.acme.Tools_Refunds_IdempotentTools}. Not for users.
 */
public final class BindingNames {

    /** Appended to the joined simple names of the tool class. */
    public static final String SUFFIX = "_IdempotentTools";

    /**
     * A class file of idempotent-annotations that every binding uses (its policy names a
     * {@code Retry}): without it on the tool's class path at run time no binding can load.
     */
    public static final String ANNOTATIONS_CLASS_FILE = "io/idempotent/annotations/Retry.class";

    private BindingNames() {
    }

    /**
     * The binary name of the binding of the class with binary name {@code binaryName} in package
     * {@code packageName} ({@code ""} for the unnamed package).
     */
    public static String bindingClassName(String binaryName, String packageName) {
        return qualified(packageName, bindingSimpleName(binaryName, packageName));
    }

    /** The simple name of that binding class. */
    public static String bindingSimpleName(String binaryName, String packageName) {
        String simpleNames = packageName.isEmpty() ? binaryName : binaryName.substring(packageName.length() + 1);
        return simpleNames.replace('$', '_') + SUFFIX;
    }

    private static String qualified(String packageName, String simpleName) {
        return packageName.isEmpty() ? simpleName : packageName + "." + simpleName;
    }
}
