package io.idempotent.runtime.internal;

import io.idempotent.runtime.internal.store.KnownStoreProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Notices an embedded H2 database file deleted or replaced while this JVM has it open. H2 keeps
 * writing to the file it opened, which no longer has a name: every claim and result of this JVM
 * would be lost when it exits, and the next JVM would find an empty store and run completed
 * operations again. So the file's identity (its file key, or its creation time where the file
 * system has none) is taken when the store first connects and compared every time the store takes
 * a connection (one {@code stat}, far cheaper than the statement that follows); once it differs,
 * every call is refused until the JVM restarts.
 */
final class H2FileWatch {

    private final Path file;
    private volatile Object identity;
    private volatile boolean gone;

    /** Watches {@code file} (the {@code .mv.db} file). */
    H2FileWatch(Path file) {
        this.file = file;
    }

    /** {@code target} with this watch on every connection it hands out. */
    DataSource guard(DataSource target) {
        return new ConnectionDecoratingDataSource(target) {
            @Override
            protected Connection decorate(Connection connection) throws SQLException {
                try {
                    check();
                } catch (SQLException e) {
                    connection.close();
                    throw e;
                }
                return connection;
            }
        };
    }

    /** Records the file's identity on the first connection; refuses once the file is not the one opened. */
    void check() throws SQLException {
        if (gone) {
            throw refusal();
        }
        Object now = identityNow();
        if (identity == null) {
            if (now != null) {
                identity = now;
            }
            return;
        }
        if (!identity.equals(now)) {
            gone = true;
            throw refusal();
        }
    }

    private Object identityNow() {
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            return attributes.fileKey() != null ? attributes.fileKey() : attributes.creationTime();
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            // Unreadable attributes say nothing about the file's identity; H2 reports what it meets.
            return identity;
        }
    }

    private KnownStoreProblem refusal() {
        return new KnownStoreProblem("the H2 file " + file + " was deleted or replaced while this JVM had it open;"
                + " what this JVM writes now is lost when it exits, and another JVM would run completed operations"
                + " again", null, "Restart the JVM (restore the file from a backup first if it was deleted by"
                + " mistake); calls are refused until then", null);
    }
}
