package referee.starter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/** Where the secret lives. POST /v1/bots shows it only once, so registration writes it to a
 *  file the bot reads back on restart (re-read when it changes: a rotated secret written
 *  there takes effect without a restart); or it is given as $REFEREE_BOT_SECRET. */
public final class Secret {
    private volatile String value;
    final Path file;
    private long modified = -1;
    private String cached = "";

    Secret(String value, Path file) { this.value = value == null ? "" : value; this.file = file; }

    /** The Python kit's place: $REFEREE_BOT_STATE_DIR, else $XDG_STATE_HOME/referee/bots,
     *  else ~/.local/state/referee/bots; never the checkout. */
    static Path defaultFile(String name) {
        String dir = System.getenv("REFEREE_BOT_STATE_DIR");
        Path base;
        if (dir != null && !dir.isEmpty()) base = Path.of(dir);
        else {
            String xdg = System.getenv("XDG_STATE_HOME");
            Path state = xdg != null && !xdg.isEmpty() ? Path.of(xdg)
                : Path.of(System.getProperty("user.home"), ".local", "state");
            base = state.resolve("referee").resolve("bots");
        }
        String safe = name.replaceAll("[^A-Za-z0-9._-]+", "_").replaceAll("^[._]+|[._]+$", "");
        return base.resolve((safe.isEmpty() ? "bot" : safe) + ".secret");
    }

    synchronized String get() {
        if (!value.isEmpty()) return value;
        try {
            long now = Files.getLastModifiedTime(file).toMillis();
            if (now != modified) {
                cached = Files.readString(file, StandardCharsets.UTF_8).trim();
                modified = now;
            }
            return cached;
        } catch (IOException e) {
            return "";
        }
    }

    synchronized void keep(String secret) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, secret + "\n", StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        value = secret;
    }
}
