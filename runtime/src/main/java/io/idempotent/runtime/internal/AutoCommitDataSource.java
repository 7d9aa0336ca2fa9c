package io.idempotent.runtime.internal;

import io.idempotent.runtime.StoreConfigurationException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The store's view of an application's data source: every connection it borrows runs in
 * auto-commit mode, so each operation record commits on its own, and goes back to the
 * application with the auto-commit setting it came with.
 *
 * <p>The store must never join the caller's business transaction: a claim that rolls back with
 * it would let the body run again on the next call. A data source that hands out the connection
 * bound to the current transaction would also make switching auto-commit on commit that
 * transaction halfway. Spring's {@code TransactionAwareDataSourceProxy} (also under other Spring
 * {@code DelegatingDataSource}s) is therefore recognised and replaced by the data source it
 * proxies, whose connections are independent of the transaction. Other data sources that bind
 * connections to a transaction (JTA / XA-enlisted ones) are not recognised: give the store a
 * plain pool.
 */
final class AutoCommitDataSource extends ConnectionDecoratingDataSource {

    private static final System.Logger LOG = System.getLogger(AutoCommitDataSource.class.getName());
    private static final String SPRING = "org.springframework.jdbc.datasource.";
    private static final String DELEGATING = SPRING + "DelegatingDataSource";
    private static final String TRANSACTION_AWARE = SPRING + "TransactionAwareDataSourceProxy";

    private AutoCommitDataSource(DataSource target) {
        super(target);
    }

    /** The store's view of {@code application}, the data source that store {@code name} was given. */
    static DataSource of(String name, DataSource application) {
        DataSource independent = independentOfTransactions(name, application);
        if (independent != application) {
            LOG.log(System.Logger.Level.INFO, "store {0}: the data source takes part in Spring transactions; the"
                    + " store uses the data source beneath it ({1}), so its records commit on their own", name,
                    independent.getClass().getName());
        }
        return new AutoCommitDataSource(independent);
    }

    /**
     * The data source beneath the innermost transaction-aware Spring proxy in the chain of
     * Spring delegating data sources that starts at {@code dataSource}; {@code dataSource}
     * itself when there is none.
     */
    private static DataSource independentOfTransactions(String name, DataSource dataSource) {
        DataSource independent = dataSource;
        DataSource current = dataSource;
        while (current != null && isA(current.getClass(), DELEGATING)) {
            DataSource beneath = targetOf(name, current);
            if (isA(current.getClass(), TRANSACTION_AWARE)) {
                if (beneath == null) {
                    throw new StoreConfigurationException(null, null, "store " + name + ": the data source is a "
                            + current.getClass().getName() + " without a target; give the store the data source"
                            + " it proxies");
                }
                independent = beneath;
            }
            current = beneath;
        }
        return independent;
    }

    private static DataSource targetOf(String name, DataSource delegating) {
        try {
            Method getter = delegating.getClass().getMethod("getTargetDataSource");
            return (DataSource) getter.invoke(delegating);
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new StoreConfigurationException(null, null, "store " + name + ": cannot read the target of the"
                    + " Spring data source " + delegating.getClass().getName() + "; give the store the data source"
                    + " it proxies (its records must not join the application's transactions)", e);
        }
    }

    private static boolean isA(Class<?> type, String className) {
        for (Class<?> k = type; k != null; k = k.getSuperclass()) {
            if (k.getName().equals(className)) {
                return true;
            }
        }
        return false;
    }

    @Override
    protected Connection decorate(Connection connection) throws SQLException {
        boolean autoCommit;
        try {
            autoCommit = connection.getAutoCommit();
            if (!autoCommit) {
                // A connection fresh from the pool: no statement ran on it yet, so this commits nothing.
                connection.setAutoCommit(true);
            }
        } catch (SQLException | RuntimeException e) {
            try {
                connection.close();
            } catch (SQLException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        if (autoCommit) {
            return connection;
        }
        return (Connection) Proxy.newProxyInstance(AutoCommitDataSource.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    if (method.getName().equals("close") && method.getParameterCount() == 0) {
                        restoreAndClose(connection);
                        return null;
                    }
                    return invoke(connection, method, args);
                });
    }

    private static void restoreAndClose(Connection connection) throws SQLException {
        try {
            if (!connection.isClosed()) {
                connection.setAutoCommit(false);
            }
        } finally {
            connection.close();
        }
    }
}
