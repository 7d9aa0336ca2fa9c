package kotlin.jvm;

/** Stands in for Kotlin's annotation: kept in the class file, invisible to reflection, as Kotlin's. */
@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.CLASS)
public @interface JvmStatic {
}
