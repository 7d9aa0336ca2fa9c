package io.idempotent.runtime.binding;

/**
 * The naming rule shared by the annotation processor (which writes bindings) and the runtime and
 * agent (which load them): the binding class of {@code com.acme.Tools.Refunds} is
 * {@code com.acme.Tools_Refunds_IdempotentTools}.
 */
public final class BindingNames {

    /** Appended to the joined simple names of the tool class. */
    public static final String SUFFIX = "_IdempotentTools";

    private BindingNames() {
    }

    /** The binary name of the binding class generated for {@code toolClass}. */
    public static String bindingClassName(Class<?> toolClass) {
        String name = toolClass.getName();
        String packageName = toolClass.getPackageName();
        String simpleNames = packageName.isEmpty() ? name : name.substring(packageName.length() + 1);
        String binding = simpleNames.replace('$', '_') + SUFFIX;
        return packageName.isEmpty() ? binding : packageName + "." + binding;
    }
}
