package kotlin;

/** Stands in for Kotlin's annotation on every class kotlinc (and kapt's stubs) write. */
@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
public @interface Metadata {
    int k() default 1;

    int[] mv() default {};
}
