package io.idempotent.runtime.internal;

import io.idempotent.runtime.StoreConfigurationException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The files of an embedded H2 store are its owner's only: they hold every payload and result.
 * Where the file system has POSIX permissions, a directory of the store's own is {@code rwx------}
 * (created so, or restricted when the store opens), which is what protects the files H2 creates
 * later with the process's umask (the {@code .lock.db} of the JVM that serves the file, a
 * {@code .trace.db}, temporary files). A directory that also holds other files (the working
 * directory of {@code jdbc:h2:file:./ops}, a project's or a web root) is not the store's to
 * restrict: its mode is left alone. Either way the store's files already there, and those H2
 * creates with each new connection, are made {@code rw-------}. A directory that other users (its
 * group or others) may write to is refused: they could replace or plant the store's files. So is
 * a directory another user owns (made in advance on a shared path, its write bits taken away
 * afterwards: its owner can still replace the files or give the directory back to everyone), and
 * a file of the database another user owns; root may own the directory, since root can do all that
 * anyway, but a JVM running as root is held to the same rule as any other.
 * The {@code .secret} is not touched here: {@link H2StoreSecret} refuses an unsafe one rather
 * than repair it, since a secret others could read may have been read.
 */
final class H2StoreFiles {

    private static final System.Logger LOG = System.getLogger(H2StoreFiles.class.getName());
    static final Set<PosixFilePermission> OWNER_ONLY_FILE = PosixFilePermissions.fromString("rw-------");
    static final Set<PosixFilePermission> OWNER_ONLY_DIRECTORY = PosixFilePermissions.fromString("rwx------");
    /** Permissions that let other users in. */
    static final Set<PosixFilePermission> OTHERS = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    private final String store;
    private final Path directory;
    /** The database's file name without {@code .mv.db}: its files are {@code <prefix>.*}. */
    private final String prefix;

    private H2StoreFiles(String store, Path directory, String prefix) {
        this.store = store;
        this.directory = directory;
        this.prefix = prefix;
    }

    /**
     * Makes the directory of {@code database} (a path without {@code .mv.db}) owner-only, creating
     * it so when it is missing, and its files owner-only; null when the file system has no POSIX
     * permissions (nothing to keep).
     *
     * @throws StoreConfigurationException when other users may write to the directory, another
     *     user owns it or one of the database's files, or it cannot be created or restricted
     */
    static H2StoreFiles secure(String store, Path database) {
        Path directory = database.toAbsolutePath().getParent();
        if (directory == null || !posix(directory)) {
            return null;
        }
        H2StoreFiles files = new H2StoreFiles(store, directory, database.getFileName().toString());
        try {
            files.secureDirectory();
            files.refuseFilesOfAnotherUser();
            files.restrictFiles(System.Logger.Level.INFO);
        } catch (IOException e) {
            throw new StoreConfigurationException(null, null, "store " + store + ": cannot make the embedded store's"
                    + " directory " + directory + " and its files readable by their owner only (" + e.getClass()
                    .getSimpleName() + ")", "Run as the user who owns " + directory + ", or give it to that user;"
                    + " then chmod 700 " + directory, e);
        }
        return files;
    }

    /** {@code direct} (the store's unpooled connections) restricting the files H2 creates as it connects. */
    DataSource restrictingNewFiles(DataSource direct) {
        return new ConnectionDecoratingDataSource(direct) {
            @Override
            protected Connection decorate(Connection connection) {
                try {
                    restrictFiles(System.Logger.Level.DEBUG); // H2's own new files, in an owner-only directory
                } catch (IOException e) {
                    LOG.log(System.Logger.Level.WARNING, "store {0}: cannot restrict the files of {1} to their owner"
                            + " ({2}); the directory, rwx------, still keeps other users out", store, directory,
                            e.getClass().getSimpleName());
                }
                return connection;
            }
        };
    }

    private void secureDirectory() throws IOException {
        if (!Files.isDirectory(directory)) {
            try {
                Files.createDirectories(directory, PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIRECTORY));
            } catch (FileAlreadyExistsException e) {
                // another JVM, or another user, made it at the same moment: checked below
            }
        }
        // Checked even when just created: createDirectories accepts a directory someone else made first.
        UserPrincipal owner = Files.getOwner(directory);
        UserPrincipal running = runningUser(directory);
        if (running != null && !mayOwnTheDirectory(owner, running, root(directory))) {
            throw new StoreConfigurationException(null, null, "store " + store + ": the embedded store's directory "
                    + directory + " is owned by " + owner.getName() + ", not by " + running.getName() + ", the user"
                    + " running this JVM, so " + owner.getName() + " could replace the store's files or open them to"
                    + " others", "Keep the store in a directory that the application's user owns (set store.url"
                    + " to a path in one), or, if the directory and the store's files in it are trustworthy, chown "
                    + running.getName() + " " + directory, null);
        }
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(directory);
        if (permissions.contains(PosixFilePermission.GROUP_WRITE)
                || permissions.contains(PosixFilePermission.OTHERS_WRITE)) {
            throw new StoreConfigurationException(null, null, "store " + store + ": other users may write to the"
                    + " embedded store's directory " + directory + " (" + PosixFilePermissions.toString(permissions)
                    + "), so they could replace or plant the store's files", "Keep the store in a directory of its"
                    + " own that only its user may write to: chmod 700 " + directory + ", or set store.url to a path"
                    + " in such a directory", null);
        }
        if (holdsOnlyTheStoresFiles()) {
            restrict(directory, permissions, OWNER_ONLY_DIRECTORY, System.Logger.Level.INFO);
        } else if (!Collections.disjoint(permissions, OTHERS)) {
            LOG.log(System.Logger.Level.INFO, "store {0}: {1} holds other files too, so its mode ({2}) is left as it"
                    + " is and only the store''s files are kept rw-------; a directory of the store''s own is"
                    + " restricted to rwx------", store, directory, PosixFilePermissions.toString(permissions));
        }
    }

    /**
     * Whether a directory owned by {@code owner} may hold the store of a JVM running as
     * {@code running}: its own, or root's (root can replace any file anyway, so trusting its
     * directories adds no one). A JVM running as root gets no such exception: a directory another
     * user owns is theirs to swap files in, and root would then open what they planted.
     */
    static boolean mayOwnTheDirectory(UserPrincipal owner, UserPrincipal running, UserPrincipal root) {
        return owner.equals(running) || owner.equals(root);
    }

    /**
     * Refuses a file of the database (its {@code .mv.db}, {@code .lock.db}, {@code .trace.db},
     * {@code .secret}, ...) that another user owns: it was written by them, or is theirs to change.
     * Root is no exception here: a file it left cannot be restricted, nor written, by another user.
     */
    private void refuseFilesOfAnotherUser() throws IOException {
        UserPrincipal running = runningUser(directory);
        if (running == null) {
            return;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, prefix + ".*")) {
            for (Path file : files) {
                refuseIfOwnedByAnotherUser(store, file, running,
                        file.getFileName().toString().endsWith(H2StoreSecret.SUFFIX) ? "secret" : "file");
            }
        }
    }

    /**
     * Refuses {@code file} (not followed if it is a link) when another user than {@code running}
     * owns it, naming the store, the file, both users and the fix; {@code what} is how the message
     * names it ({@code "file"}, {@code "secret"}).
     */
    static void refuseIfOwnedByAnotherUser(String store, Path file, UserPrincipal running, String what)
            throws IOException {
        UserPrincipal owner = Files.getOwner(file, LinkOption.NOFOLLOW_LINKS);
        if (!owner.equals(running)) {
            throw new StoreConfigurationException(null, null, "store " + store + ": the embedded store's " + what
                    + " " + file + " is owned by " + owner.getName() + ", not by " + running.getName() + ", the user"
                    + " running this JVM, so another user may have written it", "Run the application as the user who"
                    + " created the store, or, if the file is trustworthy, chown " + running.getName() + " " + file,
                    null);
        }
    }

    /** The superuser of the file system that holds {@code path}, or null when it has none by that name. */
    private static UserPrincipal root(Path path) {
        try {
            return path.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("root");
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
    }

    /** Whether every entry of the directory is one of this database's files ({@code <prefix>.*}). */
    private boolean holdsOnlyTheStoresFiles() throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
            for (Path entry : entries) {
                if (!entry.getFileName().toString().startsWith(prefix + ".")) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Every file of the database but its secret: {@code .mv.db}, {@code .lock.db}, {@code .trace.db} and the rest. */
    private void restrictFiles(System.Logger.Level level) throws IOException {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, prefix + ".*")) {
            for (Path file : files) {
                if (!file.getFileName().toString().equals(prefix + H2StoreSecret.SUFFIX)
                        && Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                    restrict(file, Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS), OWNER_ONLY_FILE,
                            level);
                }
            }
        }
    }

    /** Takes every permission of other users away from {@code path}, keeping its owner's. */
    private void restrict(Path path, Set<PosixFilePermission> permissions, Set<PosixFilePermission> ownerOnly,
            System.Logger.Level level) throws IOException {
        Set<PosixFilePermission> kept = EnumSet.noneOf(PosixFilePermission.class);
        kept.addAll(permissions);
        kept.removeAll(OTHERS);
        if (kept.size() == permissions.size()) {
            return;
        }
        kept.addAll(ownerOnly); // the owner keeps what the store needs
        Files.setPosixFilePermissions(path, kept);
        LOG.log(level, "store {0}: {1} was {2}; now {3}, its owner''s only", store, path,
                PosixFilePermissions.toString(permissions), PosixFilePermissions.toString(kept));
    }

    /**
     * The user this JVM runs as, by the file system that holds {@code path}: the owner of
     * {@code /proc/self} where there is one (the process's own user, whatever {@code user.name}
     * says), else the user named by {@code user.name}; null when neither can be told.
     */
    static UserPrincipal runningUser(Path path) {
        try {
            Path self = path.getFileSystem().getPath("/proc/self");
            if (Files.exists(self)) {
                return Files.getOwner(self);
            }
            return path.getFileSystem().getUserPrincipalLookupService()
                    .lookupPrincipalByName(System.getProperty("user.name"));
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
    }

    /** Whether {@code path}, or its nearest existing ancestor, is on a file system with POSIX permissions. */
    static boolean posix(Path path) {
        Path existing = path.toAbsolutePath();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        return existing != null && existing.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}
