package io.idempotent.runtime.testing;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Everything the runtime logs through {@code System.Logger} (which goes to java.util.logging
 * unless the application installs another backend) while it is open, as formatted text with
 * stack traces.
 */
public final class CapturedLog implements AutoCloseable {

    private final Logger root = Logger.getLogger("");
    private final List<LogRecord> records = new ArrayList<>();
    private final SimpleFormatter formatter = new SimpleFormatter();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            synchronized (records) {
                records.add(record);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    /** Starts capturing. */
    public CapturedLog() {
        handler.setLevel(Level.ALL);
        root.addHandler(handler);
    }

    /** The records so far, each formatted with its stack trace. */
    public List<String> lines() {
        List<String> out = new ArrayList<>();
        synchronized (records) {
            for (LogRecord r : records) {
                StringBuilder line = new StringBuilder(r.getLevel() + " " + r.getLoggerName() + ": "
                        + formatter.formatMessage(r));
                if (r.getThrown() != null) {
                    StringWriter trace = new StringWriter();
                    r.getThrown().printStackTrace(new PrintWriter(trace));
                    line.append('\n').append(trace);
                }
                out.add(line.toString());
            }
        }
        return out;
    }

    /** All records as one text. */
    public String text() {
        return String.join("\n", lines());
    }

    @Override
    public void close() {
        root.removeHandler(handler);
    }
}
