package io.idempotent.runtime.internal;

import io.idempotent.runtime.StoreConfigurationException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Pattern;

/**
 * The password of an embedded H2 store that was given none. H2 would create the database with
 * user {@code sa} and an empty password, and with {@code AUTO_SERVER} the JVM that opens it
 * serves it on a local TCP port, so any local user could connect and rewrite the records. The
 * first JVM generates a random secret instead and keeps it beside the database, in
 * {@code <database>.secret}, readable by its owner only (on file systems with POSIX
 * permissions); later JVMs, which share the database, read it there.
 *
 * <p>The file is created atomically ({@code CREATE_NEW}) and holds one line; a JVM that finds
 * it before its creator finished writing waits for the line to be complete. A secret found is
 * used only when it is safe: owned by the user running the JVM, neither readable nor writable by
 * group or others, and in the generated format; anything else is refused, never repaired and
 * never put into a statement.
 */
final class H2StoreSecret {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Set<PosixFilePermission> OWNER_ONLY = H2StoreFiles.OWNER_ONLY_FILE;
    private static final Set<PosixFilePermission> OWNER_ONLY_DIRECTORY = H2StoreFiles.OWNER_ONLY_DIRECTORY;
    /** 32 random bytes in base64url without padding. */
    private static final int SECRET_LENGTH = 43;
    private static final Pattern GENERATED = Pattern.compile("[A-Za-z0-9_-]{" + SECRET_LENGTH + "}");
    static final String SUFFIX = ".secret";

    private H2StoreSecret() {
    }

    /**
     * The secret file of the H2 file database {@code url}, or null when its path cannot be told
     * (an H2 file system prefix such as {@code split:} or {@code nioMapped:}).
     */
    static Path fileFor(String url) {
        String path = url.substring("jdbc:h2:".length());
        int settings = path.indexOf(';');
        path = settings < 0 ? path : path.substring(0, settings);
        if (path.startsWith("file:")) {
            path = path.substring("file:".length());
        }
        if (path.matches("^[A-Za-z]{2,}:.*")) {
            return null;
        }
        if (path.startsWith("~")) {
            path = System.getProperty("user.home") + path.substring(1);
        }
        return Paths.get(path + SUFFIX).toAbsolutePath().normalize();
    }

    /** The secret kept in {@code file}, created there first if no JVM did yet. */
    static String readOrCreate(String store, Path file, Duration patience) {
        try {
            createDirectories(file.getParent());
            String secret = Base64.getUrlEncoder().withoutPadding().encodeToString(randomBytes());
            try (SeekableByteChannel out = Files.newByteChannel(file, EnumSet.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE, StandardOpenOption.SYNC), ownerOnly(file, OWNER_ONLY))) {
                out.write(ByteBuffer.wrap((secret + "\n").getBytes(StandardCharsets.US_ASCII)));
                return secret;
            } catch (FileAlreadyExistsException e) {
                return await(store, file, patience);
            }
        } catch (IOException e) {
            throw new StoreConfigurationException(null, null, "store " + store + ": cannot create or read the"
                    + " embedded store's secret " + file + " (" + e + "); make its directory writable, or configure"
                    + " store.password", e);
        }
    }

    /** Reads a secret that another JVM (or an earlier run) created, waiting while it is written. */
    private static String await(String store, Path file, Duration patience) throws IOException {
        refuseIfUnsafe(store, file);
        long deadline = System.nanoTime() + patience.toNanos();
        while (true) {
            String content = Files.readString(file, StandardCharsets.US_ASCII);
            if (content.endsWith("\n") && !content.isBlank()) {
                return validated(store, file, content);
            }
            if (System.nanoTime() - deadline > 0) {
                throw new StoreConfigurationException(null, null, "store " + store + ": the embedded store's secret "
                        + file + " stayed incomplete for " + patience + "; a JVM died while creating it. If no"
                        + " database file was created beside it, delete it and start again");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    /**
     * The secret in {@code content} when it is one this class generates; anything else (a file
     * someone wrote, a truncated copy) is refused unused: it is never put into a statement.
     */
    private static String validated(String store, Path file, String content) {
        String secret = content.strip();
        if (!GENERATED.matcher(secret).matches()) {
            throw new StoreConfigurationException(null, null, "store " + store + ": the embedded store's secret " + file
                    + " is not a secret this library generated (" + SECRET_LENGTH + " base64url characters on one"
                    + " line), so it is not used", "Restore the secret from a backup taken with the database (they"
                    + " belong together), or configure store.password; moving the database and its secret aside"
                    + " starts an empty store, which forgets every recorded operation", null);
        }
        return secret;
    }

    /**
     * Refuses a secret that another user owns or that other users may read or write: they could
     * have planted it or read it. It is not repaired here, since only its owner can tell whether
     * it was read.
     */
    private static void refuseIfUnsafe(String store, Path file) throws IOException {
        if (!file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            return;
        }
        UserPrincipal running = H2StoreFiles.runningUser(file);
        if (running != null) {
            H2StoreFiles.refuseIfOwnedByAnotherUser(store, file, running, "secret");
        }
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS);
        Set<PosixFilePermission> others = EnumSet.copyOf(H2StoreFiles.OTHERS);
        others.retainAll(permissions);
        others.remove(PosixFilePermission.GROUP_EXECUTE);
        others.remove(PosixFilePermission.OTHERS_EXECUTE);
        if (!others.isEmpty()) {
            throw new StoreConfigurationException(null, null, "store " + store + ": other users may read or write the"
                    + " embedded store's secret " + file + " (" + PosixFilePermissions.toString(permissions) + ")",
                    "Restrict it with chmod 600 " + file + "; if another user may have read it, treat the store as"
                    + " read by them", null);
        }
    }

    private static byte[] randomBytes() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    private static void createDirectories(Path directory) throws IOException {
        if (directory != null && !Files.isDirectory(directory)) {
            try {
                Files.createDirectories(directory, ownerOnly(directory, OWNER_ONLY_DIRECTORY));
            } catch (FileAlreadyExistsException e) {
                // another JVM made it at the same moment
            }
        }
    }

    private static FileAttribute<?>[] ownerOnly(Path path, Set<PosixFilePermission> permissions) {
        Path existing = path.getParent();
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        boolean posix = existing != null && existing.getFileSystem().supportedFileAttributeViews().contains("posix");
        return posix ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(permissions)}
                : new FileAttribute<?>[0];
    }

    /**
     * Whether a password is really given in the URL ({@code ;PASSWORD=}): a user alone
     * ({@code ;USER=}) is not one, and still gets the generated secret.
     */
    static boolean urlHasPassword(String url) {
        return urlSetting(url, "PASSWORD") != null;
    }

    /**
     * The value of the H2 setting {@code name} in the URL ({@code ;USER=app}), or null. H2 refuses
     * a user given both in the URL and as the connection's user unless they are the same, so the
     * store connects as the URL's user when it names one.
     */
    static String urlSetting(String url, String name) {
        String[] parts = url.split(";");
        for (int i = 1; i < parts.length; i++) {
            int equals = parts[i].indexOf('=');
            if (equals > 0 && parts[i].substring(0, equals).strip().equalsIgnoreCase(name)) {
                return parts[i].substring(equals + 1);
            }
        }
        return null;
    }
}
