package kotlin.coroutines;

/** Stands in for Kotlin's own type: what a suspend function's last parameter looks like to javac. */
public interface Continuation<T> {
    void resumeWith(Object result);
}
