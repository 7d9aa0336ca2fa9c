package io.idempotent.policy.internal;

import java.util.List;

/**
 * The one-pass (consumable) types: values that are read once, so serialising one to hash a
 * payload would use it up and the body would then get an empty or closed source. The processor
 * refuses a payload parameter whose type is or holds one (it sees the declared types, by these
 * names); the runtime refuses a payload value of such a class before Jackson touches it (it meets
 * the value's class, which the declared type may not show: an {@code Object} or a {@code List<?>}
 * that holds an iterator). Both read this one list. Not for users.
 *
 * <p>Where the two lists differed before they met here, each entry is now decided for both:
 * <ul>
 *   <li>{@code java.nio.file.DirectoryStream} (was only the processor's): the runtime meets it too,
 *       and Jackson writes it as an {@code Iterable}, so hashing took its only iterator and the
 *       body's {@code iterator()} threw {@code IllegalStateException}. Refused by both.
 *   <li>{@code java.nio.channels.Channel} (the runtime's one-pass source; the processor's "not
 *       data"): a readable channel is the NIO {@code InputStream}, read once; the runtime meets a
 *       value's class, and the channels it meets most ({@code FileChannel}, {@code SocketChannel})
 *       read and write alike, so it cannot refuse only the readable ones; and a channel's JSON is
 *       {@code {"open":true}}, so a call with another channel would hash like the first. Refused by
 *       both as one-pass; the processor's payload message for a channel now says so (its
 *       diagnostic, {@code [IdemPayloadType]}, and position are unchanged).
 * </ul>
 */
public final class OnePassTypes {

    /**
     * A one-pass type and the words a message calls it by.
     *
     * @param className the qualified (and binary) name of the type, a JDK interface or class
     * @param words what a message calls a value of it ({@code "an Iterator"})
     */
    public record OnePassType(String className, String words) {
    }

    /**
     * The one-pass types, in the order the runtime tests a value's class (the first match names
     * it: a class that is both an {@code Iterator} and a {@code Closeable} source is called an
     * {@code Iterator}).
     */
    public static final List<OnePassType> ALL = List.of(
            new OnePassType("java.util.Iterator", "an Iterator"),
            new OnePassType("java.util.Spliterator", "a Spliterator"),
            new OnePassType("java.util.Enumeration", "an Enumeration"),
            new OnePassType("java.util.stream.BaseStream", "a Stream"),
            new OnePassType("java.io.InputStream", "an InputStream"),
            new OnePassType("java.io.Reader", "a Reader"),
            new OnePassType("java.nio.channels.Channel", "a Channel"),
            new OnePassType("java.nio.file.DirectoryStream", "a DirectoryStream"));

    private OnePassTypes() {
    }
}
