package io.idempotent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.idempotent.annotations.IdempotentTool;
import io.idempotent.annotations.Retry;
import io.idempotent.runtime.agent.ToolDispatcher;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.testing.Database;
import io.idempotent.runtime.testing.FakeProvider;
import io.idempotent.runtime.testing.OnBothDatabases;
import io.idempotent.runtime.testing.Policies;
import io.idempotent.runtime.testing.TestDatabase;
import io.idempotent.runtime.twins.FirstRefundTools;
import io.idempotent.runtime.twins.SecondRefundTools;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Spliterator;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Bad input gets a clear error, no claim, and the body does not run. */
class BadInputTest {

    private static final ToolPolicy TOOL = Policies.downstreamKey("refund", Retry.SAFE).build();
    private static final Map<String, Object> PAYLOAD = Map.of("id", "1");
    /** What one-pass sources in the payload hold: the body must still get all three. */
    private static final List<String> ITEMS = List.of("sku-secret-1", "sku-secret-2", "sku-secret-3");

    // Payload types that hold what hashing would consume or cannot see.
    record Order(String id, Iterator<String> items) {
    }

    record Batch(Stream<String> items) {
    }

    record Pricing(String currency, Supplier<Long> price) {
    }

    /** A bean (not a record) whose property is a one-pass source. */
    static final class Basket {
        private final Iterator<String> items;

        Basket(Iterator<String> items) {
            this.items = items;
        }

        public String getOwner() {
            return "ada";
        }

        public Iterator<String> getItems() {
            return items;
        }
    }

    // Result types that cannot be stored, or not read back.
    /** A node of a cyclic graph. */
    public static final class Node {
        public String name = "secret-node";
        public Node next;
    }

    /** A result whose getter throws while it is written. */
    public static final class Receipt {
        public String getId() {
            return "secret-receipt";
        }

        public long getAmount() {
            throw new IllegalStateException("secret-amount is not loaded");
        }
    }

    /** An interface without type information: its JSON does not say which class to read back. */
    public interface Shape {
    }

    public record Circle(String label, double radius) implements Shape {
    }

    /** No creator: Jackson can write it but cannot make one to read it back into. */
    public static final class Ticket {
        private final String id;
        private final int seat;

        public Ticket(String id, int seat) {
            this.id = id;
            this.seat = seat;
        }

        public String getId() {
            return id;
        }

        public int getSeat() {
            return seat;
        }
    }

    /**
     * A two-argument {@code @JsonCreator} without {@code @JsonProperty}, compiled (as this module is)
     * with {@code -parameters}: Jackson without its parameter-names module sees no names (issue 49).
     */
    public static final class Settlement {
        private final String id;
        private final int cents;

        @com.fasterxml.jackson.annotation.JsonCreator
        public Settlement(String id, int cents) {
            this.id = id;
            this.cents = cents;
        }

        public String getId() {
            return id;
        }

        public int getCents() {
            return cents;
        }
    }

    /** A record that holds a list of interfaces without type information. */
    public record Drawing(String name, List<Shape> shapes) {
    }

    /** One result that cannot be stored or read back, and the type the tool declares. */
    record Unstorable(String what, Supplier<Object> result, java.lang.reflect.Type type) {
        @Override
        public String toString() {
            return what;
        }
    }

    /** The table: add a row for the next result that must not pass silently. */
    private static final List<Unstorable> UNSTORABLE = List.of(
            new Unstorable("a cyclic object", () -> {
                Node a = new Node();
                Node b = new Node();
                a.next = b;
                b.next = a;
                return a;
            }, Node.class),
            new Unstorable("a throwing getter", Receipt::new, Receipt.class));

    /**
     * Result types that no value of can be read back by the runtime's mapper: refused before the
     * claim, so the body never makes an effect whose result could not be replayed.
     */
    private static final List<Unstorable> UNREADABLE_TYPES = List.of(
            new Unstorable("an interface without type information", () -> new Circle("secret-circle", 2.5),
                    Shape.class),
            new Unstorable("a class without a creator", () -> new Ticket("secret-ticket", 12), Ticket.class),
            new Unstorable("a bare two-argument @JsonCreator", () -> new Settlement("secret-settlement", 12),
                    Settlement.class),
            new Unstorable("a list of interfaces without type information", () -> new Drawing("secret-drawing",
                    List.of(new Circle("secret-circle", 1))), Drawing.class));

    /**
     * One payload value that must be refused before the claim: what it is, how to make it from
     * {@link #ITEMS}, where the message must say it is and what it must call it, and how to read
     * what is left of it afterwards (null when it holds no items).
     */
    record Unhashable(String what, Function<List<String>, Object> make, String path, String kind,
            Function<Object, List<String>> left) {
        @Override
        public String toString() {
            return what;
        }
    }

    /** The table: add a row for the next value hashing must not touch. */
    private static final List<Unhashable> UNHASHABLE = List.of(
            new Unhashable("an Iterator", List::iterator, "is an Iterator", "one-pass",
                    v -> drain((Iterator<?>) v)),
            new Unhashable("a record component holding an Iterator", items -> new Order("o-1", items.iterator()),
                    "holds at arg.items an Iterator", "one-pass", v -> drain(((Order) v).items())),
            new Unhashable("a record component holding a Stream", items -> new Batch(items.stream()),
                    "holds at arg.items a Stream", "one-pass", v -> ((Batch) v).items().toList()),
            new Unhashable("a bean property holding an Iterator", items -> new Basket(items.iterator()),
                    "holds at arg.items an Iterator", "one-pass", v -> drain(((Basket) v).getItems())),
            new Unhashable("an Iterator in a list in a map value",
                    items -> Map.of("k", List.of("first", items.iterator())), "holds at arg[?][1] an Iterator",
                    "one-pass", v -> drain((Iterator<?>) ((List<?>) ((Map<?, ?>) v).get("k")).get(1))),
            new Unhashable("a Spliterator", List::spliterator, "is a Spliterator", "one-pass", v -> {
                List<String> left = new ArrayList<>();
                ((Spliterator<String>) v).forEachRemaining(left::add);
                return left;
            }),
            new Unhashable("an Enumeration", items -> Collections.enumeration(items), "is an Enumeration", "one-pass",
                    v -> Collections.list((Enumeration<String>) v)),
            new Unhashable("an InputStream", items -> new ByteArrayInputStream(String.join(",", items)
                    .getBytes(StandardCharsets.UTF_8)), "is an InputStream", "one-pass", v -> lines((InputStream) v)),
            new Unhashable("a Reader", items -> new StringReader(String.join(",", items)), "is a Reader", "one-pass",
                    v -> lines((Reader) v)),
            new Unhashable("a Channel", items -> Channels.newChannel(new ByteArrayInputStream(String.join(",", items)
                    .getBytes(StandardCharsets.UTF_8))), "is a Channel", "one-pass", v -> lines((ReadableByteChannel) v)),
            new Unhashable("a DirectoryStream", BadInputTest::directoryOf, "is a DirectoryStream", "one-pass",
                    v -> names((DirectoryStream<?>) v)),
            new Unhashable("a Runnable lambda", items -> (Runnable) () -> { }, "is a lambda", "changed function",
                    null),
            new Unhashable("a method reference", items -> (Supplier<Integer>) items::size, "is a lambda",
                    "changed function", null),
            new Unhashable("an anonymous Runnable", items -> new Runnable() {
                @Override
                public void run() {
                }
            }, "is a lambda", "changed function", null),
            new Unhashable("a record component holding a Supplier", items -> new Pricing("EUR", () -> 1250L),
                    "holds at arg.price a lambda", "changed function", null),
            new Unhashable("a lambda in a list", items -> List.of((Runnable) () -> { }), "holds at arg[0] a lambda",
                    "changed function", null));

    @SuppressWarnings("unchecked")
    private static List<String> drain(Iterator<?> items) {
        List<String> left = new ArrayList<>();
        ((Iterator<String>) items).forEachRemaining(left::add);
        return left;
    }

    private static List<String> lines(InputStream in) {
        try {
            return List.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).split(","));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static List<String> lines(Reader in) {
        StringBuilder text = new StringBuilder();
        try {
            in.transferTo(new java.io.Writer() {
                @Override
                public void write(char[] chars, int off, int len) {
                    text.append(chars, off, len);
                }

                @Override
                public void flush() {
                }

                @Override
                public void close() {
                }
            });
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return List.of(text.toString().split(","));
    }

    /** A directory stream over a new directory holding one empty file per item. */
    private static DirectoryStream<Path> directoryOf(List<String> items) {
        try {
            Path directory = Files.createTempDirectory("one-pass");
            directory.toFile().deleteOnExit();
            for (String item : items) {
                Files.createFile(directory.resolve(item)).toFile().deleteOnExit();
            }
            return Files.newDirectoryStream(directory);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The file names a directory stream still gives (its only iterator), sorted, and closes it. */
    private static List<String> names(DirectoryStream<?> stream) {
        List<String> names = new ArrayList<>();
        try (stream) {
            stream.iterator().forEachRemaining(path -> names.add(((Path) path).getFileName().toString()));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        Collections.sort(names);
        return names;
    }

    private static List<String> lines(ReadableByteChannel channel) {
        ByteBuffer buffer = ByteBuffer.allocate(1024);
        try {
            while (channel.read(buffer) > 0) {
                // reads until the end
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return List.of(new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8).split(","));
    }

    /**
     * One call the runtime must refuse before the claim: the policy, key and payload, the
     * exception and what its message must say.
     */
    record RefusedCall(String what, ToolPolicy policy, String key, Map<String, ?> payload,
            Class<? extends IdempotencyException> refusal, List<String> says, List<String> neverSays) {

        RefusedCall(String what, ToolPolicy policy, String key, Map<String, ?> payload,
                Class<? extends IdempotencyException> refusal, List<String> says) {
            this(what, policy, key, payload, refusal, says, List.of());
        }

        @Override
        public String toString() {
            return what;
        }
    }

    /** The table of calls refused before the claim: add a row for the next one. */
    private static final List<RefusedCall> REFUSED_BEFORE_THE_CLAIM = List.of(
            new RefusedCall("a key over 512 characters", TOOL, "card-4111-" + "k".repeat(503), PAYLOAD,
                    InvalidOperationKeyException.class, List.of("513 characters", "512"), List.of("4111")),
            new RefusedCall("a key with a control character", TOOL, "refund:1\n2", PAYLOAD,
                    InvalidOperationKeyException.class, List.of("U+000A")),
            new RefusedCall("a payload that cannot be serialised", TOOL, "refund:1",
                    Map.of("stream", InputStream.nullInputStream()), PayloadNotSerializableException.class,
                    List.of("stream", "@NotPayload")),
            new RefusedCall("an unknown store name", Policies.downstreamKey("refund", Retry.SAFE).store("billing")
                    .build(), "refund:1", PAYLOAD, StoreConfigurationException.class,
                    List.of("\"billing\"", "[default]", "store.billing.url")));

    @OnBothDatabases
    void callsThatCannotBeClaimedAreRefusedBeforeTheClaim(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        for (RefusedCall row : REFUSED_BEFORE_THE_CLAIM) {
            Throwable refused = catchThrowable(() -> runtime.call(row.policy(), row.key(), row.payload(),
                    String.class, () -> provider.apply("x")));
            assertThat(refused).as(row.what()).isInstanceOf(row.refusal());
            for (String fragment : row.says()) {
                assertThat(refused).as(row.what()).hasMessageContaining(fragment);
            }
            for (String fragment : row.neverSays()) {
                assertThat(refused).as(row.what()).hasMessageNotContaining(fragment);
            }
        }
        assertThat(provider.invocations()).as("body runs").isZero();
        assertThat(db.operationRows()).isZero();
    }

    @OnBothDatabases
    void aKeyOfExactlyFiveHundredTwelveCharactersIsAccepted(TestDatabase db) {
        FakeProvider provider = new FakeProvider();
        assertThat(db.runtime().call(TOOL, "k".repeat(512), PAYLOAD, String.class, () -> provider.apply("x")))
                .isEqualTo("done:x");
    }

    @OnBothDatabases
    void downstreamIdWithAControlCharacterIsRefusedBeforeTheEffectAndNothingIsRecorded(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        ToolPolicy tool = Policies.marked("notify", Retry.SAFE).build();
        FakeProvider provider = new FakeProvider();
        Throwable refused = catchThrowable(() -> runtime.call(tool, "notify:1", PAYLOAD, String.class, () -> {
            OperationContext.current().effectStarting("psp-1\u001b[2J");
            return provider.apply("x");
        }));
        assertThat(refused).isInstanceOf(ValueRejectedException.class)
                .hasMessageContaining("notify").hasMessageContaining("notify:1")
                .hasMessageContaining("downstream request id").hasMessageContaining("U+001B")
                .hasMessageNotContaining("psp-1");
        assertThat(((IdempotencyException) refused).retryable()).as("retryable").isFalse();
        assertThat(provider.invocations()).isZero();
        // The boundary was never passed and the id never written.
        assertThat(db.queryString("SELECT status FROM tool_operations WHERE operation_key = ?", "notify:1"))
                .isEqualTo("failed_safe");
        assertThat(db.queryString("SELECT downstream_id FROM tool_operations WHERE operation_key = ?", "notify:1"))
                .isNull();
        assertThat(db.queryString("SELECT COUNT(*) FROM tool_operation_attempt_log WHERE downstream_id IS NOT NULL"))
                .isEqualTo("0");
    }

    @OnBothDatabases
    void missingSchemaInValidateModeIsRejected(TestDatabase db) {
        IdempotentRuntime runtime = db.track(db.runtimeBuilder().schema(SchemaMode.VALIDATE).build());
        FakeProvider provider = new FakeProvider();
        assertThatThrownBy(() -> runtime.call(TOOL, "refund:1", PAYLOAD, String.class, () -> provider.apply("x")))
                .isInstanceOf(StoreConfigurationException.class).hasMessageContaining("schema is missing")
                .hasMessageContaining("V1__idempotent_tool_operations.sql");
        assertThat(provider.invocations()).isZero();
        assertThat(db.tableExists("tool_operations")).isFalse();
    }

    @OnBothDatabases
    void aSchemaWithoutTheAttemptLogViewIsRejectedInValidateMode(TestDatabase db) {
        db.runtime().call(TOOL, "refund:1", PAYLOAD, String.class, () -> "created by the first runtime");
        FakeProvider provider = new FakeProvider();
        db.update("DROP VIEW tool_operation_attempts");
        IdempotentRuntime validating = db.track(db.runtimeBuilder().schema(SchemaMode.VALIDATE).build());
        assertThatThrownBy(() -> validating.call(TOOL, "refund:3", PAYLOAD, String.class, () -> provider.apply("x")))
                .isInstanceOf(StoreConfigurationException.class).hasMessageContaining("schema is missing")
                .satisfies(e -> assertThat(e.getMessage()).containsIgnoringCase("tool_operation_attempts"))
                .hasMessageContaining("V1__idempotent_tool_operations.sql");
        assertThat(provider.invocations()).isZero();
    }

    @OnBothDatabases
    void validateModeAcceptsAnExistingSchema(TestDatabase db) {
        db.runtime().call(TOOL, "refund:1", PAYLOAD, String.class, () -> "created by the first runtime");
        IdempotentRuntime validating = db.track(db.runtimeBuilder().schema(SchemaMode.VALIDATE).build());
        assertThat(validating.call(TOOL, "refund:1", PAYLOAD, String.class, () -> "never"))
                .isEqualTo("created by the first runtime");
    }

    @Test
    void unreachableStoreFailsClosed() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        FakeProvider provider = new FakeProvider();
        try (IdempotentRuntime runtime = IdempotentRuntime.builder()
                .store("default", "jdbc:postgresql://127.0.0.1:" + closedPort + "/nowhere", "u", "p").build()) {
            assertThatThrownBy(() -> runtime.call(TOOL, "refund:1", PAYLOAD, String.class, () -> provider.apply("x")))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("the body did not run")
                    .satisfies(e -> assertThat(((IdempotencyException) e).retryable()).isTrue());
        }
        assertThat(provider.invocations()).isZero();
    }

    @Test
    void unsupportedUrlIsRejectedAtBuild() {
        assertThatThrownBy(() -> IdempotentRuntime.builder().store("default", "jdbc:mysql://x/y", "u", "p").build())
                .isInstanceOf(StoreConfigurationException.class).hasMessageContaining("jdbc:postgresql:");
    }

    /** Jackson can copy only mappers whose class overrides {@code copy()}, and the runtime needs its own copy. */
    @Test
    void aMapperSubclassThatCannotBeCopiedIsRejectedWhereItIsGiven() {
        ObjectMapper custom = new ObjectMapper() {
        };
        assertThatThrownBy(() -> IdempotentRuntime.builder().objectMapper(custom))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not override copy()")
                .hasMessageContaining("private copy");
    }

    /**
     * Two classes bind one tool name on one store (without a release-gate table, so only the calls
     * show it): the second is refused, naming both, instead of being answered with the first
     * one's stored result. The class path's tables are tested in the processor module
     * (SameToolNameInTwoJarsTest), where two classes are compiled apart with the processor.
     */
    @OnBothDatabases
    void aSecondClassBindingTheSameToolNameOnTheSameStoreIsRefused(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        int firstRuns = FirstRefundTools.RUNS.get();
        int secondRuns = SecondRefundTools.RUNS.get();
        Object[] args = {"inv_842"};
        assertThat(runtime.call(FirstRefundTools.REFUND, args, () -> FirstRefundTools.refund("inv_842")))
                .isEqualTo("First:inv_842");
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> runtime.call(SecondRefundTools.REFUND, args,
                    () -> SecondRefundTools.refund("inv_842")))
                    .isInstanceOf(StoreConfigurationException.class)
                    .hasMessageContaining(FirstRefundTools.class.getName())
                    .hasMessageContaining(SecondRefundTools.class.getName())
                    .hasMessageContaining("store \"default\"")
                    .hasMessageContaining("the body did not run")
                    .satisfies(e -> assertThat(((IdempotencyException) e).retryable()).isFalse());
        }
        assertThat(SecondRefundTools.RUNS.get() - secondRuns).as("second body runs").isZero();
        // The first class keeps its tool: its repeat is replayed as before.
        assertThat(runtime.call(FirstRefundTools.REFUND, args, () -> FirstRefundTools.refund("inv_842")))
                .isEqualTo("First:inv_842");
        assertThat(FirstRefundTools.RUNS.get() - firstRuns).as("first body runs").isEqualTo(1);
        assertThat(db.operationRows()).isEqualTo(1);
    }

    /**
     * Values that hashing would use up (the body saw 0 of 3 items; a used-up Stream threw in the
     * body and left the operation awaiting reconciliation) or cannot see (a function hashes as
     * {}, so a changed one replayed the first result) are refused before the claim: no row, no
     * body, and the value is left whole. The message names the parameter and the path, never the
     * value.
     */
    @OnBothDatabases
    void payloadValuesThatHashingWouldConsumeOrCannotSeeAreRefusedBeforeTheClaim(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        FakeProvider provider = new FakeProvider();
        for (Unhashable row : UNHASHABLE) {
            Object value = row.make().apply(ITEMS);
            Map<String, Object> payload = Map.of("id", "1", "arg", value);
            Throwable refused = catchThrowable(() -> runtime.call(TOOL, "refund:" + row.what(), payload,
                    String.class, () -> provider.apply("x")));
            assertThat(refused).as(row.what())
                    .isInstanceOf(PayloadNotSerializableException.class)
                    .hasMessageContaining("payload argument arg " + row.path())
                    .hasMessageContaining(row.kind())
                    .hasMessageContaining("nothing was claimed and the body did not run")
                    .hasMessageContaining("@NotPayload")
                    .hasMessageNotContaining("sku-secret")
                    .satisfies(e -> assertThat(((IdempotencyException) e).retryable()).isFalse());
            if (row.left() != null) {
                assertThat(row.left().apply(value)).as("what is left of " + row.what()).isEqualTo(ITEMS);
            }
        }
        assertThat(provider.invocations()).as("body runs").isZero();
        assertThat(db.operationRows()).isZero();
        // The same values, held as values, are hashed and run.
        Map<String, Object> values = Map.of("id", "1", "arg", Map.of("items", ITEMS));
        assertThat(runtime.call(TOOL, "refund:values", values, String.class, () -> provider.apply("x")))
                .isEqualTo("done:x");
        assertThat(db.operationRows()).isEqualTo(1);
    }

    /**
     * A result that cannot be stored (cyclic, a throwing getter) or read back (an interface
     * without type information, no creator): the first call returned it while the record went
     * to needs_reconciliation without a word (or stayed completed and failed every replay). Now
     * the caller gets a non-retryable ResultNotReplayableException naming the tool, key and type,
     * the record says so (without the value), and a retry never runs the body again, also under
     * Retry.UNCERTAIN with a downstream key, whose re-send would only repeat the same end.
     */
    @OnBothDatabases
    void aResultThatCannotBeStoredOrReadBackFailsTheFirstCallAndAwaitsReconciliation(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        for (Retry retry : List.of(Retry.SAFE, Retry.UNCERTAIN)) {
            ToolPolicy tool = Policies.downstreamKey("refund", retry).build();
            for (Unstorable row : UNSTORABLE) {
                String key = "refund:" + retry + ":" + row.what();
                FakeProvider provider = new FakeProvider();
                Throwable first = catchThrowable(() -> runtime.call(tool, key, PAYLOAD, row.type(), () -> {
                    provider.apply(key, "refund");
                    return row.result().get();
                }));
                String label = retry + ", " + row.what();
                assertThat(first).as(label).isInstanceOf(ResultNotReplayableException.class)
                        .hasMessageContaining("tool refund, key " + key)
                        .hasMessageContaining(row.type().getTypeName())
                        .hasMessageContaining("effect may have happened")
                        .hasMessageContaining("needs_reconciliation")
                        .hasMessageContaining("Operations.settleApplied")
                        .hasMessageNotContaining("secret")
                        .satisfies(e -> assertThat(e.getMessage()).as("one readable message").hasSizeLessThan(1200))
                        .satisfies(e -> assertThat(((IdempotencyException) e).retryable()).isFalse());
                assertThat(db.status(key)).as(label).isEqualTo("needs_reconciliation");
                String error = db.queryString("SELECT error_json FROM tool_operations WHERE operation_key = ?", key);
                assertThat(error).as(label).contains(ResultNotReplayableException.class.getName())
                        .contains(row.type().getTypeName()).doesNotContain("secret");

                Throwable retried = catchThrowable(() -> runtime.call(tool, key, PAYLOAD, row.type(), () -> {
                    provider.apply(key, "refund");
                    return row.result().get();
                }));
                assertThat(retried).as(label + ", retried").isInstanceOf(NeedsReconciliationException.class);
                assertThat(provider.invocations()).as(label + ", body runs").isEqualTo(1);
                assertThat(db.status(key)).as(label).isEqualTo("needs_reconciliation");
            }
        }
    }

    /**
     * A result type that the runtime's mapper can never read back (no creator it can call, an
     * interface without type information, a {@code @JsonCreator} whose names it cannot see): the
     * body used to run, make its effect, and leave the record in needs_reconciliation for a type
     * that could never have been replayed. Now the call is refused before anything is claimed, as
     * the release gate refuses the type at build time, and the body never runs.
     */
    @OnBothDatabases
    void aResultTypeTheMapperCannotReadBackIsRefusedBeforeTheClaimAndTheBodyNeverRuns(TestDatabase db) {
        IdempotentRuntime runtime = db.runtime();
        ToolPolicy tool = Policies.downstreamKey("refund", Retry.SAFE).build();
        for (Unstorable row : UNREADABLE_TYPES) {
            String key = "refund:" + row.what();
            FakeProvider provider = new FakeProvider();
            for (int call = 0; call < 2; call++) {
                Throwable refused = catchThrowable(() -> runtime.call(tool, key, PAYLOAD, row.type(), () -> {
                    provider.apply(key, "refund");
                    return row.result().get();
                }));
                assertThat(refused).as(row.what()).isInstanceOf(ResultNotReplayableException.class)
                        .hasMessageContaining("tool refund, key " + key)
                        .hasMessageContaining("the result type " + row.type().getTypeName() + " cannot be read back")
                        .hasMessageContaining("nothing was claimed and the body did not run")
                        .hasMessageContaining("[IdemResultReadBack]")
                        .hasMessageNotContaining("secret")
                        .satisfies(e -> assertThat(((IdempotencyException) e).retryable()).isFalse());
            }
            assertThat(provider.invocations()).as(row.what() + ", body runs").isZero();
        }
        assertThat(db.operationRows()).isZero();
    }

    /** A tool the agent could meet in a class that can never have a binding. */
    interface Sender {
        String send(String to);
    }

    /** Anonymous, local, and named but nested in an anonymous class: the table of unnamed tool classes. */
    private static List<Sender> unnamedToolClasses() {
        class LocalSender implements Sender {
            @Override
            @IdempotentTool(key = "send:{to}", downstreamKey = false, reconciler = ManualReview.class,
                    retry = Retry.NEVER)
            public String send(String to) {
                throw new AssertionError("the body ran");
            }
        }
        Supplier<Sender> outer = new Supplier<>() {
            final class InsideAnonymous implements Sender {
                @Override
                @IdempotentTool(key = "send:{to}", downstreamKey = false, reconciler = ManualReview.class,
                        retry = Retry.NEVER)
                public String send(String to) {
                    throw new AssertionError("the body ran");
                }
            }

            @Override
            public Sender get() {
                return new InsideAnonymous();
            }
        };
        Sender nested = outer.get();
        return List.of(new Sender() {
            @Override
            @IdempotentTool(key = "send:{to}", downstreamKey = false, reconciler = ManualReview.class,
                    retry = Retry.NEVER)
            public String send(String to) {
                throw new AssertionError("the body ran");
            }
        }, new LocalSender(), nested);
    }

    /**
     * A tool in an anonymous or local class was refused as "compiled without the processor",
     * which sends the user to a build that is fine. The message says what is wrong and the fix.
     */
    @Test
    void aToolInAnAnonymousOrLocalClassIsRefusedForWhatItIs() {
        for (Sender tool : unnamedToolClasses()) {
            Throwable refused = catchThrowable(() -> ToolDispatcher.enter(tool.getClass(),
                    "send(Ljava/lang/String;)Ljava/lang/String;", new Object[] {"ada@example.com"}));
            String name = tool.getClass().getName();
            assertThat(refused).as(name).isInstanceOf(MissingBindingException.class)
                    .hasMessageContaining(name)
                    .hasMessageContaining("anonymous and local classes cannot hold tools")
                    .hasMessageContaining("Move the method to a named top-level or nested class")
                    .hasMessageNotContaining("compiled without")
                    .satisfies(e -> assertThat(((IdempotencyException) e).retryable()).isFalse());
        }
    }
}
