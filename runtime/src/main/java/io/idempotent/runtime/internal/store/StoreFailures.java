package io.idempotent.runtime.internal.store;

import io.idempotent.runtime.StoreConfigurationException;
import io.idempotent.runtime.StoreUnavailableException;
import io.idempotent.runtime.ValueRejectedException;
import java.sql.SQLException;
import java.util.function.UnaryOperator;

/**
 * The exceptions of one store's failures, in its own words: what it tried, which store, the
 * problem and code by {@link SqlStates#classify}, and what became of a claim. Never the
 * database's message, which may quote SQL or a refused value.
 */
final class StoreFailures {

    /** The advice of a claim that may have been recorded. */
    private static final String RETRY_RECORDED = "Retry the call later with the same key: a recorded claim"
            + " answers as in progress until this runtime releases it, as soon as the store answers again (or"
            + " until its lease expires, if this JVM stops first)";

    /** The store as messages name it: its name, database and URL without credentials. */
    private final String described;
    /**
     * What a failure means beyond its code, told before it is classified: for an embedded H2
     * file, whether another JVM holds the file ({@link StoreChangingHands}); else the failure itself.
     */
    private volatile UnaryOperator<SQLException> explained = UnaryOperator.identity();

    StoreFailures(String described) {
        this.described = described;
    }

    /** The store as messages name it ("store \"default\" (h2, URL)"). */
    String described() {
        return described;
    }

    RuntimeException unavailable(String what, SQLException e) {
        return failure(what, e, ClaimFate.NOT_A_CLAIM);
    }

    /**
     * The exception for a failure of the store, by {@link SqlStates#classify}. {@code claimed}
     * says what became of a claim ({@link ClaimFate#NOTHING_CLAIMED}, {@link ClaimFate#MAY_HAVE_CLAIMED},
     * or {@link ClaimFate#NOT_A_CLAIM} for
     * another statement); only a store that may answer again can have recorded a claim its
     * caller did not hear of.
     */
    RuntimeException failure(String what, SQLException e, ClaimFate claimed) {
        return failure(described, what, explained.apply(e), claimed);
    }

    /** Explains every later failure with {@code explanation} before it is classified. */
    void explainWith(UnaryOperator<SQLException> explanation) {
        this.explained = explanation;
    }

    /**
     * The exception for a failure of the store {@code described} ("store \"default\" (h2, URL)")
     * while it tried {@code what} ("connect to"); see {@link #failure(String, SQLException, ClaimFate)}.
     */
    static RuntimeException failure(String described, String what, SQLException e, ClaimFate claimed) {
        SqlStates.Failure failure = SqlStates.classify(e);
        String happened = "could not " + what + " " + described + ": " + failure.problem()
                + (failure.code() == null ? "" : " (" + failure.code() + ")");
        return switch (failure.kind()) {
            case VALUE_REJECTED -> new ValueRejectedException(null, null, happened, failure.advice(), e);
            case CONFIGURATION -> new StoreConfigurationException(null, null, happened
                    + (claimed == ClaimFate.NOT_A_CLAIM ? "" : ClaimFate.NOTHING_CLAIMED.said()), failure.advice(), e);
            case UNAVAILABLE -> claimed == ClaimFate.MAY_HAVE_CLAIMED
                    ? new StoreUnavailableException(null, null, happened + claimed.said(), RETRY_RECORDED, e)
                    : new StoreUnavailableException(null, null, happened + claimed.said(), e);
        };
    }
}
