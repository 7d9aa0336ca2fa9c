package io.idempotent.runtime.binding;

import io.idempotent.policy.internal.KeyTemplate;
import io.idempotent.runtime.InvalidOperationKeyException;
import io.idempotent.runtime.MissingOperationKeyException;
import io.idempotent.runtime.Step;
import io.idempotent.runtime.internal.OperationKeys;
import io.idempotent.runtime.internal.SubscriberStep;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Period;
import java.time.Year;
import java.time.YearMonth;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Helpers that generated bindings call while rendering an operation key, and the one home of a
 * key part's text form. A key part that is missing fails the call before anything is claimed.
 *
 * <p>Each accepted type has one documented text form, which is the same on every JVM version, so
 * that the same logical value always renders the same key:
 * <ul>
 *   <li>{@code String} and other {@code CharSequence}s: their characters; {@code char}: the character;
 *   <li>{@code byte}, {@code short}, {@code int}, {@code long}, their boxes and {@code BigInteger}:
 *       decimal digits with a leading {@code -} when negative;
 *   <li>{@code boolean}: {@code true} or {@code false};
 *   <li>enums: {@link Enum#name()} (never a {@code toString()} the enum may override);
 *   <li>{@code UUID}: the lower-case 8-4-4-4-12 form;
 *   <li>{@code BigDecimal}: one form per numeric value, {@code stripTrailingZeros().toPlainString()}
 *       ({@code 12.50} and {@code 12.5} are both {@code 12.5}, {@code 1E+3} is {@code 1000}, zero is
 *       {@code 0}); a value whose plain form would not fit in a key is refused before it is built;
 *   <li>{@code Instant}: ISO-8601 in UTC ({@code 2026-12-03T10:15:30Z}, fractions in groups of three
 *       digits); {@code LocalDate}, {@code LocalDateTime}, {@code LocalTime}, {@code OffsetDateTime},
 *       {@code OffsetTime}: ISO-8601 with seconds always and the fraction only as long as needed
 *       ({@code 10:15:00}, {@code 10:15:30.5}), the offset as given ({@code Z}, {@code +01:00});
 *       {@code YearMonth} {@code 2026-12}, {@code Year} {@code 2026}, {@code MonthDay} {@code --12-03},
 *       {@code Duration} {@code PT1H30M}, {@code Period} {@code P14D} (as built: {@code P12M} is not
 *       {@code P1Y}).
 * </ul>
 * Every other type is refused: floating-point numbers (their text differs between JDK versions,
 * and binary fractions are not the decimals they look like), arrays and collections (identity or
 * iteration order), {@code ZonedDateTime} (its text depends on the JVM's time-zone rules) and any
 * type whose only text is its {@code toString()}. The annotation processor refuses them at build
 * time ({@code IdemKeyPartType}); this class refuses them again for hand-written bindings.
 */
public final class KeyParts {

    /** The longest digits-and-sign form of a BigDecimal that can still fit in a key. */
    private static final int MAX_DECIMAL_TEXT = OperationKeys.MAX_LENGTH;

    private KeyParts() {
    }

    /**
     * The text of one placeholder's value, in the form documented on this class.
     *
     * @param tool the tool's name, for the message
     * @param placeholder the placeholder as written in the template, for example {@code invoice.id}
     * @param value the value read from the arguments
     * @throws MissingOperationKeyException if the value is null
     * @throws InvalidOperationKeyException if the value's type has no stable text form, or the
     *     placeholder is {@code {step}} (the workflow's step, never an argument)
     */
    public static String text(String tool, String placeholder, Object value) {
        if (KeyTemplate.namesStep(placeholder)) {
            // Only a binding generated before the gate refused a parameter named step gets here.
            throw new InvalidOperationKeyException(tool, null, "cannot render the operation key: {step} is the"
                    + " workflow's step, never an argument, but this binding reads {" + placeholder + "} from a"
                    + " parameter; nothing was claimed", "rename the parameter and compile the tool again with the"
                    + " current idempotent-processor", null);
        }
        if (value == null) {
            throw new MissingOperationKeyException(tool, "{" + placeholder + "} is null");
        }
        String text = stableText(tool, placeholder, value);
        if (text == null) {
            throw new InvalidOperationKeyException(tool, null, "cannot render the operation key: {"
                    + placeholder + "} is a " + value.getClass().getTypeName() + ", which has no stable text form"
                    + hint(value) + "; nothing was claimed. A key part must be a string, an integral number, a"
                    + " boolean, an enum, a UUID, a BigDecimal or a java.time value (see KeyParts)");
        }
        return text;
    }

    private static String stableText(String tool, String placeholder, Object value) {
        if (value instanceof CharSequence chars) {
            return chars.toString();
        }
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte
                || value instanceof Boolean || value instanceof Character || value instanceof UUID) {
            return value.toString();
        }
        if (value instanceof BigInteger big) {
            // A subclass could override toString; the number's own digits cannot change.
            return big.getClass() == BigInteger.class ? big.toString() : new BigInteger(big.toByteArray()).toString();
        }
        if (value instanceof BigDecimal decimal) {
            return decimal(tool, placeholder, decimal);
        }
        if (value instanceof Enum<?> constant) {
            return constant.name();
        }
        return time(value);
    }

    private static String decimal(String tool, String placeholder, BigDecimal value) {
        // Stripping the trailing zeros of a value with very many digits would cost more than refusing it.
        BigDecimal stripped = value.precision() > 10 * MAX_DECIMAL_TEXT ? value : value.stripTrailingZeros();
        if (stripped.signum() == 0) {
            return "0";
        }
        // The plain form's length follows from precision and scale; never build a huge one.
        long precision = stripped.precision();
        long scale = stripped.scale();
        long length = (scale <= 0 ? precision - scale : Math.max(precision, scale) + 2) + 1;
        if (length > MAX_DECIMAL_TEXT) {
            throw new InvalidOperationKeyException(tool, null, "cannot render the operation key: {"
                    + placeholder + "} is a BigDecimal whose plain form would have about " + length
                    + " characters, more than a key may have (" + OperationKeys.MAX_LENGTH + "); nothing was claimed");
        }
        return stripped.toPlainString();
    }

    private static String time(Object value) {
        if (value instanceof Instant instant) {
            return DateTimeFormatter.ISO_INSTANT.format(instant);
        }
        if (value instanceof LocalDate date) {
            return DateTimeFormatter.ISO_LOCAL_DATE.format(date);
        }
        if (value instanceof LocalDateTime dateTime) {
            return DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(dateTime);
        }
        if (value instanceof LocalTime time) {
            return DateTimeFormatter.ISO_LOCAL_TIME.format(time);
        }
        if (value instanceof OffsetDateTime dateTime) {
            return DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(dateTime);
        }
        if (value instanceof OffsetTime time) {
            return DateTimeFormatter.ISO_OFFSET_TIME.format(time);
        }
        if (value instanceof YearMonth || value instanceof Year || value instanceof MonthDay
                || value instanceof Duration || value instanceof Period) {
            // Their toString is the ISO-8601 form their javadoc specifies.
            return value.toString();
        }
        return null;
    }

    private static String hint(Object value) {
        if (value instanceof Double || value instanceof Float) {
            return " (its text differs between JDK versions); key by an integral amount such as cents, or a BigDecimal";
        }
        if (value.getClass().isArray()) {
            return " (its text is its identity: a new key every call); key by an id instead";
        }
        if (value instanceof Iterable<?> || value instanceof java.util.Map<?, ?>) {
            return " (its text depends on iteration order); key by an id instead";
        }
        if (value instanceof java.time.ZonedDateTime) {
            return " (its text depends on the JVM's time-zone rules); pass an Instant or an OffsetDateTime";
        }
        return "";
    }

    /**
     * Checks an intermediate value of an accessor chain such as {@code {invoice.customer.id}}
     * before the next accessor is called on it, and returns it.
     *
     * @throws MissingOperationKeyException if the value is null
     */
    public static <T> T notNull(String tool, String path, T value) {
        if (value == null) {
            throw new MissingOperationKeyException(tool, "{" + path + "} is null");
        }
        return value;
    }

    /**
     * The current step key, for {@code {step}}: the thread's {@link Step} (for a {@code Mono}
     * tool at subscription, the subscriber's Reactor {@code Context} entry {@link Step#CONTEXT_KEY}
     * first; the two must agree).
     *
     * @throws MissingOperationKeyException if no step is set, or two different steps are
     */
    public static String step(String tool) {
        return step(tool, new StepSource[0]).orElseThrow(() -> MissingOperationKeyException.ofMissingStep(tool,
                "the key needs {step}, but no step is set on this thread; the workflow layer must call"
                        + " Step.begin(\"...\") around the call (and carry it to other threads with Step.wrap)"));
    }

    /**
     * For {@code {step}} on a method with a framework context parameter: the context's
     * {@link Step#CONTEXT_KEY} entry first, then (a {@code Mono} tool at subscription) the
     * subscriber's Reactor {@code Context} entry, then the thread's current {@link Step}. When two
     * are present and differ, nothing can tell which decision the call belongs to, so it is
     * refused. The one home of this rule, for synchronous and asynchronous tools alike.
     *
     * @param tool the tool's name, for the message
     * @param contextParameter the context parameter's name, for the message
     * @param entry the context's {@code CONTEXT_KEY} entry, or null when it has none
     * @throws MissingOperationKeyException if none gives a step, an entry is not a valid step key,
     *     or two differ
     */
    public static String step(String tool, String contextParameter, Object entry) {
        StepSource[] parameter = entry == null ? new StepSource[0]
                : new StepSource[] {StepSource.of(tool, "the context parameter " + contextParameter, entry)};
        return step(tool, parameter).orElseThrow(() -> MissingOperationKeyException.ofMissingStep(tool, "the key needs {step},"
                + " but the context parameter " + contextParameter + " has no entry " + Step.CONTEXT_KEY + " and no"
                + " step is set on this thread; the workflow passes it in the framework's context"
                + " (Step.asContext(\"...\")) or calls Step.begin(\"...\") around the call"));
    }

    /** The first step of the sources in precedence order, after checking that no other differs. */
    private static Optional<String> step(String tool, StepSource[] parameter) {
        java.util.List<StepSource> sources = new java.util.ArrayList<>(java.util.Arrays.asList(parameter));
        Object subscriber = SubscriberStep.entry();
        if (subscriber != null) {
            sources.add(StepSource.of(tool, "Reactor's Context", subscriber));
        }
        Step.currentKey().ifPresent(key -> sources.add(new StepSource("the thread's Step", "is", key)));
        if (sources.isEmpty()) {
            return Optional.empty();
        }
        StepSource first = sources.get(0);
        for (StepSource other : sources.subList(1, sources.size())) {
            if (!other.step.equals(first.step)) {
                throw new MissingOperationKeyException(tool, first + " but " + other + "; the call is refused"
                        + " rather than guess which decision it belongs to");
            }
        }
        return Optional.of(first.step);
    }

    /** One place a step came from: a context's entry or the thread's Step, named for the message. */
    private record StepSource(String name, String verb, String step) {

        /** A context's {@code CONTEXT_KEY} entry, which must be a valid step key. */
        static StepSource of(String tool, String name, Object entry) {
            if (!(entry instanceof CharSequence)) {
                throw new MissingOperationKeyException(tool, "the entry " + Step.CONTEXT_KEY + " of " + name + " is a "
                        + entry.getClass().getName() + ", not a string step key");
            }
            String step = entry.toString();
            String problem = OperationKeys.problem(step);
            if (problem != null) {
                throw new MissingOperationKeyException(tool, "the entry " + Step.CONTEXT_KEY + " of " + name
                        + " is not a valid step key: it " + problem);
            }
            return new StepSource(name, "carries step", step);
        }

        @Override
        public String toString() {
            return name + " " + verb + " \"" + step + "\"";
        }
    }

    /**
     * The text of {@code {context.NAME}}: entry NAME of the method's context parameter.
     *
     * @param tool the tool's name, for the message
     * @param placeholder the placeholder as written, for example {@code context.approvalId}
     * @param contextParameter the context parameter's name, for the message
     * @param entry the entry's value, or null when the context has no such entry
     * @throws MissingOperationKeyException if the entry is missing or null
     * @throws InvalidOperationKeyException if the entry's type has no stable text form
     */
    public static String context(String tool, String placeholder, String contextParameter, Object entry) {
        if (entry == null) {
            throw new MissingOperationKeyException(tool, "{" + placeholder + "}: the context parameter "
                    + contextParameter + " has no entry " + placeholder.substring(placeholder.indexOf('.') + 1));
        }
        return text(tool, placeholder, entry); // the one text form of a key part
    }

    /** Entry {@code name} of a framework context's map, or null when the map or the entry is absent. */
    public static Object entry(Map<String, ?> entries, String name) {
        return entries == null ? null : entries.get(name);
    }
}
