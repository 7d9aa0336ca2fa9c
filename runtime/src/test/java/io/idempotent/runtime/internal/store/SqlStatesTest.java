package io.idempotent.runtime.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.idempotent.runtime.internal.store.SqlStates.Failure;
import io.idempotent.runtime.internal.store.SqlStates.Kind;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.h2.message.DbException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The one classification of store errors: one row per SQLState or H2 error it knows. */
class SqlStatesTest {

    @ParameterizedTest(name = "SQLState {0}: {1}")
    @CsvSource({
        // Credentials, a missing database, a schema that is not ours: fixed by a person.
        "28P01, CONFIGURATION", "28000, CONFIGURATION", "3D000, CONFIGURATION", "3F000, CONFIGURATION",
        "42P01, CONFIGURATION", "42703, CONFIGURATION", "42501, CONFIGURATION",
        "XX001, CONFIGURATION",
        // A value the database refuses for good.
        "23505, VALUE_REJECTED", "23514, VALUE_REJECTED", "22001, VALUE_REJECTED",
        // A store that may answer again.
        // A session read-only once the store runs (a server being switched; refused at start by StoreSchema).
        "25006, UNAVAILABLE",
        "08001, UNAVAILABLE", "08006, UNAVAILABLE", "53300, UNAVAILABLE", "57P01, UNAVAILABLE",
        "57P03, UNAVAILABLE", "57014, UNAVAILABLE", "40001, UNAVAILABLE", "40P01, UNAVAILABLE",
        "55P03, UNAVAILABLE", "HYT00, UNAVAILABLE", "XX000, UNAVAILABLE"})
    void aDriversSqlStateIsClassified(String state, Kind kind) {
        Failure failure = SqlStates.classify(new SQLException("SELECT secret_value FROM t -- the driver's text", state));
        assertThat(failure.kind()).isEqualTo(kind);
        assertThat(failure.code()).isEqualTo("SQLState " + state);
        assertNoDriverText(failure);
    }

    /**
     * Named server-side statements behind a transaction pooler (issue 47): "prepared statement
     * S_1 already exists", "does not exist", "bind message supplies 9 parameters, but prepared
     * statement S_1 requires 11" are said as colliding statement names with the pooler and the
     * fix, never as a missing table, and not retried as a lost connection.
     */
    @ParameterizedTest(name = "SQLState {0}: colliding statement names")
    @CsvSource({"42P05", "26000", "08P01"})
    void aStatementNameCollisionNamesThePoolerNotAMissingTable(String state) {
        Failure failure = SqlStates.classify(new SQLException("ERROR: prepared statement \"S_3\" already exists",
                state));
        assertThat(failure.kind()).isEqualTo(Kind.CONFIGURATION);
        assertThat(failure.code()).isEqualTo("SQLState " + state);
        assertThat(failure.problem()).contains("PgBouncer").contains("pool_mode=transaction")
                .doesNotContain("table");
        assertThat(failure.advice()).contains("prepareThreshold=0").contains("pool_mode=session")
                .contains("max_prepared_statements").doesNotContain("migration");
        assertNoDriverText(failure);
    }

    @ParameterizedTest(name = "H2 error {0}: {1}, named {2}")
    @CsvSource({
        "28000, CONFIGURATION, SQLState 28000", "90097, CONFIGURATION, H2 error 90097",
        "90030, CONFIGURATION, H2 error 90030", "90028, CONFIGURATION, H2 error 90028",
        "90048, CONFIGURATION, H2 error 90048", "90146, CONFIGURATION, H2 error 90146",
        "42122, CONFIGURATION, SQLState 42S22", "23505, VALUE_REJECTED, SQLState 23505",
        "90020, UNAVAILABLE, H2 error 90020", "90067, UNAVAILABLE, H2 error 90067",
        "8000, UNAVAILABLE, SQLState 08000", "50200, UNAVAILABLE, SQLState HYT00"})
    void anH2ErrorIsClassifiedByItsCode(int code, Kind kind, String named) {
        SQLException h2 = DbException.get(code, "zqparam", "zqparam").getSQLException();
        Failure failure = SqlStates.classify(h2);
        assertThat(failure.kind()).isEqualTo(kind);
        assertThat(failure.code()).isEqualTo(named);
        assertNoDriverText(failure);
    }

    @Test
    void aStoreChangingHandsIsRetryableWithItsOwnTextWhateverH2CodeItCarries() {
        SQLException h2 = DbException.get(90028, "zqparam").getSQLException();
        SQLException busy = new StoreChangingHands("the H2 file /x.mv.db is held by another JVM (process 7)",
                "H2 error 90028", h2);
        Failure failure = SqlStates.classify(new SQLTransientConnectionException("pool", "08004", busy));
        assertThat(failure.kind()).isEqualTo(Kind.UNAVAILABLE);
        assertThat(failure.problem()).isEqualTo("the H2 file /x.mv.db is held by another JVM (process 7)");
        assertThat(failure.code()).isEqualTo("H2 error 90028");
        assertThat(failure.advice()).isNull();
    }

    @ParameterizedTest(name = "H2 error {0} is a state of the file: {1}")
    @CsvSource({"90020, true", "90028, true", "90030, true", "90048, true", "8000, true", "90067, true",
        "28000, false", "90097, false", "42122, false", "23505, false"})
    void onlyH2sErrorsAboutTheFileWaitForWhoHoldsIt(int code, boolean fileState) {
        SQLException h2 = DbException.get(code, "zqparam", "zqparam").getSQLException();
        assertThat(SqlStates.isH2FileState(h2)).isEqualTo(fileState);
        assertThat(SqlStates.isH2FileState(new SQLException("not H2's", "08006", code))).isFalse();
    }

    @Test
    void aPoolTimeoutIsClassifiedByTheRefusalBehindIt() {
        SQLException refused = new SQLException("FATAL: password authentication failed for user \"app\"", "28P01");
        SQLException timeout = new SQLTransientConnectionException("pool - Connection is not available", null,
                refused);
        assertThat(SqlStates.classify(timeout).kind()).isEqualTo(Kind.CONFIGURATION);
        assertThat(SqlStates.classify(timeout).code()).isEqualTo("SQLState 28P01");
        assertThat(SqlStates.classify(new SQLTransientConnectionException("pool - Connection is not available"))
                .kind()).isEqualTo(Kind.UNAVAILABLE);
    }

    @Test
    void aProblemTheRuntimeRecognisedKeepsItsOwnWords() {
        SQLException known = new KnownStoreProblem("the H2 file /x.mv.db was deleted", null, "Restart the JVM",
                new SQLException("wrong", "28000"));
        Failure failure = SqlStates.classify(new SQLTransientConnectionException("pool", "08004", known));
        assertThat(failure.kind()).isEqualTo(Kind.CONFIGURATION);
        assertThat(failure.problem()).isEqualTo("the H2 file /x.mv.db was deleted");
        assertThat(failure.advice()).isEqualTo("Restart the JVM");
        assertThat(failure.code()).isNull();
    }

    private static void assertNoDriverText(Failure failure) {
        assertThat(failure.problem()).doesNotContain("SELECT").doesNotContain("secret_value").doesNotContain("zqparam");
        if (failure.kind() != Kind.UNAVAILABLE) {
            assertThat(failure.advice()).isNotBlank().doesNotContain("Retry");
        }
    }
}
