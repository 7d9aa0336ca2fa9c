package io.idempotent.runtime;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.idempotent.policy.internal.ConfiguredStores;
import io.idempotent.policy.internal.StoreNames;
import io.idempotent.runtime.binding.ToolBinding;
import io.idempotent.runtime.binding.ToolPolicy;
import io.idempotent.runtime.internal.DataSources;
import io.idempotent.runtime.internal.DefaultTypingCheck;
import io.idempotent.runtime.internal.GlobalRuntimeSlot;
import io.idempotent.runtime.internal.Engine;
import io.idempotent.runtime.internal.ApprovalsView;
import io.idempotent.runtime.internal.AsyncSettings;
import io.idempotent.runtime.internal.AsyncToolCalls;
import io.idempotent.runtime.internal.OperationsView;
import io.idempotent.runtime.internal.PayloadCodec;
import io.idempotent.runtime.internal.ResultCodec;
import io.idempotent.runtime.internal.RuntimeAccess;
import io.idempotent.runtime.internal.RuntimeConfiguration;
import io.idempotent.runtime.internal.RuntimeConfiguration.StoreSettings;
import io.idempotent.runtime.internal.StoreOpening;
import io.idempotent.runtime.internal.StoreRegistry;
import io.idempotent.runtime.internal.SynchronousToolCalls;
import io.idempotent.runtime.internal.ToolStores;
import io.idempotent.runtime.internal.store.OperationStore;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * The entry point: runs tool bodies through the idempotency protocol. The agent uses the
 * {@linkplain #global() global runtime}; code without the agent builds one and calls
 * {@link #call(ToolBinding, Object[], ToolBody)} with a generated binding, or
 * {@link #call(ToolPolicy, String, Map, Type, ToolBody)} with a policy of its own.
 *
 * <pre>{@code
 * try (IdempotentRuntime runtime = IdempotentRuntime.builder()
 *         .store("default", "jdbc:postgresql://db/app", user, password)
 *         .build()) {
 *     Refund refund = runtime.call(RefundTools_IdempotentTools.ISSUE_REFUND, new Object[] {invoiceId, amount},
 *             () -> tools.issueRefundBody(invoiceId, amount));
 * }
 * }</pre>
 *
 * <p>Thread-safe; one instance per application.
 */
public final class IdempotentRuntime implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(IdempotentRuntime.class.getName());
    /** The global runtime the agent's calls use ({@link #global()}, {@link #setGlobal}). */
    private static final GlobalRuntimeSlot<IdempotentRuntime> GLOBAL = new GlobalRuntimeSlot<>(
            IdempotentRuntime::fromEnvironment, runtime -> runtime.engine.isClosed(), IdempotentRuntime::close);

    static {
        RuntimeAccess.install(runtime -> runtime.engine, GLOBAL::forget, Builder::settings);
    }

    private final Engine engine;
    private final Operations operations;
    private final Approvals approvals;
    private final Outbox outbox;
    private final List<String> description;

    private final CompositeMetricsListener metrics;

    private IdempotentRuntime(Engine engine, CompositeMetricsListener metrics, List<String> description) {
        this.metrics = metrics;
        this.engine = engine;
        this.operations = new OperationsView(engine, metrics);
        this.approvals = new ApprovalsView(engine, metrics);
        this.outbox = new io.idempotent.runtime.internal.outbox.OutboxView(store -> engine.stores().get(store,
                "operator"), metrics);
        this.description = List.copyOf(description);
    }

    /** Starts building a runtime. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A runtime configured from the agent's arguments, system properties and environment (see
     * docs/configuration.md), with the embedded H2 default only when no store URL is
     * configured at all. A configured store that no tool uses is refused, as are tools of the
     * default store while only other stores are configured: a misspelt store name must not send the
     * tools to the embedded file ({@code stores.loaded-later} admits, by name, a store whose tools
     * are loaded later).
     * When {@code opentelemetry-api} is on the class path, tool calls put their outcome on the
     * current span ({@link OpenTelemetrySpans}); the operation key only with
     * {@code telemetry.operation-keys=true}.
     */
    public static IdempotentRuntime fromEnvironment() {
        Builder builder = builder();
        RuntimeConfiguration configuration = RuntimeConfiguration.fromSystem();
        configuration.requireUsedBy(ToolStores.listed());
        for (StoreSettings settings : configuration.stores()) {
            builder.settings(settings);
        }
        configuration.number("async.threads").ifPresent(builder::asyncThreads);
        configuration.number("async.max.pending").ifPresent(builder::asyncMaxPending);
        configuration.number("duplicate.wait.ms").ifPresent(ms -> builder.duplicateWait(Duration.ofMillis(ms)));
        builder.configured(configuration);
        OpenTelemetryChoice.spans(configuration, LOG).ifPresent(builder::metrics);
        return builder.build();
    }

    /**
     * The application's runtime, used by the agent: the one {@linkplain #setGlobal set} by the
     * application, or, when the application never set one, one {@linkplain #fromEnvironment() from
     * the environment} (the embedded H2 default when nothing is configured), created on first use
     * and closed by a JVM shutdown hook, which writes the answers still queued for its attempt log.
     *
     * <p>Once the application has set a global runtime, a closed or cleared one is never replaced
     * behind its back: a key completed in the application's database would run again in the
     * embedded one. Tool calls are then refused until {@link #setGlobal} is called again.
     *
     * @throws StoreConfigurationException if the application's global runtime was closed or
     *     cleared
     */
    public static IdempotentRuntime global() {
        return GLOBAL.get();
    }

    /**
     * Makes {@code runtime} the global one (before the first tool call, typically at start-up);
     * returns the previous one, which the caller may close. Null clears it: from then on tool
     * calls through the agent are refused until a runtime is set again (see {@link #global()}).
     * A global runtime that is closed refuses calls in the same way.
     */
    public static IdempotentRuntime setGlobal(IdempotentRuntime runtime) {
        return GLOBAL.set(runtime);
    }

    /**
     * Runs a tool through the protocol with its generated binding.
     *
     * @param binding the generated binding of the tool method
     * @param args the call's arguments, in declaration order
     * @param body the tool's body
     * @return the body's result, or the stored (or reconciled) result of an earlier attempt
     * @throws X the body's own exception, unchanged, after it was classified
     * @throws IdempotencyException when the call is not run (in progress, conflict, reconciliation,
     *     store unavailable, bad key ...)
     */
    public <T, X extends Throwable> T call(ToolBinding binding, Object[] args, ToolBody<T, X> body) throws X {
        Objects.requireNonNull(binding, "binding");
        Objects.requireNonNull(args, "args");
        return SynchronousToolCalls.run(engine, binding.policy(), binding.key(args), binding.payload(args),
                binding.resultType(), Engine.toolClassOf(binding), body);
    }

    /**
     * Runs a tool through the protocol with an explicit policy, key and payload.
     *
     * @param policy the tool's policy
     * @param key the rendered operation key
     * @param payload the payload arguments by name (hashed to detect changed arguments)
     * @param resultType the type a stored result is replayed into ({@code void.class} for none)
     * @param body the tool's body
     * @throws X the body's own exception, unchanged, after it was classified
     */
    public <T, X extends Throwable> T call(ToolPolicy policy, String key, Map<String, ?> payload, Type resultType,
            ToolBody<T, X> body) throws X {
        return SynchronousToolCalls.run(engine, policy, key, payload, resultType, null, body);
    }

    /**
     * Adds {@code listener} to this running runtime's events (for listeners that exist only after
     * the runtime, such as Spring Boot's Micrometer meters); close the returned handle to remove
     * it. Listeners given to the builder need no handle.
     */
    public AutoCloseable addMetricsListener(MetricsListener listener) {
        Objects.requireNonNull(listener, "listener");
        metrics.add(listener);
        return () -> metrics.remove(listener);
    }

    /** The approval queue: list the operations that wait for a person, grant or deny one. */
    public Approvals approvals() {
        return approvals;
    }

    /**
     * The outbox: relays that deliver what tool bodies sent with {@link OperationContext#send}, and
     * the undelivered messages for an operator (docs/outbox.md).
     */
    public Outbox outbox() {
        return outbox;
    }

    /** The operator API: look up operations, settle uncertain ones. */
    public Operations operations() {
        return operations;
    }

    /** One line per store: its name, URL without credentials and schema mode. */
    public List<String> describeStores() {
        return description;
    }

    /**
     * Closes the stores this runtime opened (not data sources the application passed in). New
     * calls are refused from the start with {@link StoreConfigurationException}, also when it is
     * the global runtime: it is never silently replaced by another store. Then, in this order,
     * and each bounded by the stores' {@code store.close.timeout}: it waits for the calls being
     * decided, writes the answers queued for each store's attempt log (logging once how many it
     * could not write, if a store is down), and closes the connection pools. A call that was
     * still deciding after the wait, and whose answer can no longer be written, is refused
     * instead of answered. Closing again does nothing. The global runtime created for the agent
     * is closed by a JVM shutdown hook.
     */
    @Override
    public void close() {
        engine.close();
    }

    /** Builds an {@link IdempotentRuntime}. */
    public static final class Builder {
        private final Map<String, Supplier<OperationStore>> stores = new LinkedHashMap<>();
        private final Map<String, java.util.function.Function<SchemaMode, String>> description = new LinkedHashMap<>();
        /** The key that set the URL of each store read from the configuration, for messages. */
        private final Map<String, String> configuredBy = new LinkedHashMap<>();
        private ObjectMapper mapper;
        private final List<MetricsListener> listeners = new java.util.ArrayList<>();
        private SchemaMode schema = SchemaMode.CREATE;
        private Duration reconcilerTimeout = Engine.DEFAULT_RECONCILER_TIMEOUT;
        private int asyncThreads = AsyncToolCalls.THREADS;
        private int asyncMaxPending = AsyncToolCalls.MAX_PENDING;
        private java.util.concurrent.Executor asyncBodies;
        private Duration duplicateWait = Duration.ZERO;
        private int replayCache = io.idempotent.runtime.internal.store.AnswerLogLimits.DEFAULT_REPLAY_CACHE;

        private Builder() {
        }

        /** A store on a JDBC URL ({@code jdbc:postgresql:} or {@code jdbc:h2:}), pooled by the runtime. */
        public Builder store(String name, String jdbcUrl, String user, String password) {
            Objects.requireNonNull(jdbcUrl, "jdbcUrl");
            settings(new StoreSettings(name, jdbcUrl, user, password, null, 8));
            // Read when the store is built, so that replayCache(...) may come after this call.
            stores.put(name, () -> DataSources.open(new StoreSettings(name, jdbcUrl, user, password, schema, 8)
                    .withReplayCache(replayCache)));
            return this;
        }

        /** A store on the application's own data source (the application closes it). */
        public Builder store(String name, DataSource dataSource) {
            Objects.requireNonNull(dataSource, "dataSource");
            requireName(name);
            stores.put(name, () -> DataSources.wrap(name, dataSource, schema, replayCache));
            description.put(name, mode -> "store " + name + ": application data source (schema "
                    + mode.name().toLowerCase(java.util.Locale.ROOT) + ")");
            return this;
        }

        Builder settings(StoreSettings settings) {
            requireName(settings.name());
            stores.put(settings.name(), () -> DataSources.open(settings.schema() == null
                    ? settings.withSchema(schema) : settings));
            description.put(settings.name(), mode -> settings.describe(settings.schema() == null ? mode
                    : settings.schema()));
            return this;
        }

        /**
         * Notes where the configuration set each store's URL (for the message of a tool whose store
         * is missing), and says once when no store URL is configured, so the embedded file is used:
         * every machine then keeps operations of its own.
         */
        private void configured(RuntimeConfiguration configuration) {
            ConfiguredStores configured = configuration.configuredStores();
            configuredBy.putAll(configured.urls());
            if (configured.embeddedDefault()) {
                LOG.log(System.Logger.Level.INFO, "idempotent runtime: " + configured.describe());
            }
        }

        /** What to do with the tables on first use: create them (default) or only validate. */
        public Builder schema(SchemaMode schema) {
            this.schema = Objects.requireNonNull(schema, "schema");
            return this;
        }

        /**
         * The Jackson mapper for payloads and stored results (its modules and annotations apply).
         * By default, a mapper with every module on the class path (java.time, Optional, ...).
         * The runtime works on a private {@link ObjectMapper#copy() copy}, so the settings the
         * canonical payload needs never change the application's mapper; a subclass of
         * {@code ObjectMapper} must therefore override {@code copy()}, as Jackson requires. A mapper
         * with Jackson's default typing is used, but {@link #build()} logs one WARNING: stored
         * results would name the classes they are read into (see {@code docs/security.md}).
         *
         * @throws IllegalArgumentException if {@code mapper} cannot be copied
         */
        public Builder objectMapper(ObjectMapper mapper) {
            Objects.requireNonNull(mapper, "mapper");
            try {
                mapper.copy();
            } catch (IllegalStateException e) {
                throw new IllegalArgumentException("objectMapper: " + mapper.getClass().getName() + " does not"
                        + " override copy(); the runtime needs a private copy of the mapper so that the canonical"
                        + " payload's settings never change the application's own. Override copy() in the subclass,"
                        + " or pass a JsonMapper configured the same way", e);
            }
            this.mapper = mapper;
            return this;
        }

        /**
         * How many recently completed operations each store this builder is given in code
         * ({@link #store(String, DataSource)}, {@link #store(String, String, String, String)})
         * answers repeats of from memory (default 10,000; 0: every repeat reads the store). A
         * store configured by properties takes {@code store.replay.cache.size} instead. See
         * docs/store.md, "Replays from memory".
         */
        public Builder replayCache(int entries) {
            if (entries < 0) {
                throw new IllegalArgumentException("replayCache must not be negative, was " + entries);
            }
            this.replayCache = entries;
            return this;
        }

        /**
         * How long a reconciler may take to answer (default 10 seconds). A reconciler that takes
         * longer is interrupted and its answer counts as UNKNOWN: the caller gets
         * {@link NeedsReconciliationException} instead of waiting with every duplicate call.
         */
        public Builder reconcilerTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("reconcilerTimeout must be positive, was " + timeout);
            }
            this.reconcilerTimeout = timeout;
            return this;
        }

        /**
         * The runtime's own threads for the store work of asynchronous tools (their claims and
         * completions; {@code async.threads}), at least 1; default 8, the store's default pool
         * size. No tool body or dependent stage ever runs on them.
         */
        public Builder asyncThreads(int threads) {
            this.asyncThreads = atLeastOne("asyncThreads", threads);
            return this;
        }

        /**
         * How many asynchronous tool calls may be pending at once, from their call until their
         * outcome is recorded ({@code async.max.pending}), at least 1; default 1024. The next call
         * fails closed at once with {@link StoreUnavailableException}: nothing is claimed and its
         * body does not run.
         */
        public Builder asyncMaxPending(int calls) {
            this.asyncMaxPending = atLeastOne("asyncMaxPending", calls);
            return this;
        }

        /**
         * Where the bodies of asynchronous tools run, and their returned stages complete (so where
         * their dependents continue): the application's executor, instead of the runtime's own
         * body threads ({@code idempotent-async-body-N}, created as calls need them). A Reactor
         * {@code Scheduler} is given as {@code asyncBodies(scheduler::schedule)}. Its threads may
         * block; it should not refuse work (a refused body is released, not run). A tool called
         * from a body that runs on this executor runs its own body on the runtime's threads, so a
         * nesting never waits for a thread its caller holds.
         */
        public Builder asyncBodies(java.util.concurrent.Executor executor) {
            this.asyncBodies = Objects.requireNonNull(executor, "executor");
            return this;
        }

        private static int atLeastOne(String setting, int value) {
            if (value < 1) {
                throw new IllegalArgumentException(setting + " must be at least 1, was " + value);
            }
            return value;
        }

        /**
         * How long a duplicate call may wait for the original's outcome when it finds the
         * operation in progress (another attempt holds the lease): the duplicate then answers
         * with the original's result (a replay) or its classified failure
         * ({@link OperationFailedException}, {@link NeedsReconciliationException}) instead of
         * {@link OperationInProgressException}. It polls the operation's row, at most this long,
         * and never runs the body: a wait that ends first (the bound passed, or the original's
         * lease lapsed because its worker died) answers {@link OperationInProgressException} as
         * without waiting. Default {@link Duration#ZERO}, no waiting: a waiting call holds its
         * thread, which a server's request pool must be sized for. Never waits on a Reactor
         * non-blocking thread or the runtime's own asynchronous store threads. Each wait is
         * counted in {@link MetricsListener#duplicateWaited}.
         *
         * @throws IllegalArgumentException if {@code bound} is negative
         */
        public Builder duplicateWait(Duration bound) {
            Objects.requireNonNull(bound, "bound");
            if (bound.isNegative()) {
                throw new IllegalArgumentException("duplicateWait must not be negative, was " + bound);
            }
            this.duplicateWait = bound;
            return this;
        }

        /** Adds a listener of the protocol's events; call it once per listener. */
        public Builder metrics(MetricsListener metrics) {
            listeners.add(Objects.requireNonNull(metrics, "metrics"));
            return this;
        }

        /**
         * The runtime; with no store given, the configuration's default store (the embedded H2
         * default only when no store URL is configured at all, as {@link #fromEnvironment()}).
         */
        public IdempotentRuntime build() {
            if (stores.isEmpty()) {
                RuntimeConfiguration configuration = RuntimeConfiguration.fromSystem();
                configuration.requireUsedBy(ToolStores.listed());
                settings(configuration.store(StoreNames.DEFAULT));
                configured(configuration);
            }
            ObjectMapper m = mapper != null ? mapper : JsonMapper.builder().findAndAddModules()
                    .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).build();
            if (DefaultTypingCheck.hasDefaultTyping(m)) {
                LOG.log(System.Logger.Level.WARNING, DefaultTypingCheck.warning(m));
            }
            StoreRegistry opened = StoreOpening.open(stores, configuredBy);
            CompositeMetricsListener metrics = new CompositeMetricsListener(listeners);
            Engine engine = new Engine(opened, new PayloadCodec(m), new ResultCodec(m),
                    metrics, reconcilerTimeout, new AsyncSettings(asyncThreads, asyncMaxPending, asyncBodies));
            engine.duplicateWait(duplicateWait);
            List<String> lines = description.values().stream().map(line -> line.apply(schema)).toList();
            // The runtime names its real stores itself: the agent cannot know what the application configures.
            lines.forEach(line -> LOG.log(System.Logger.Level.INFO, "idempotent runtime: " + line));
            return new IdempotentRuntime(engine, metrics, lines);
        }

        private static void requireName(String name) {
            StoreNames.require(name);
        }
    }
}
