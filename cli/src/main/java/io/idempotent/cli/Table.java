package io.idempotent.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * A plain text table for people: a header row, aligned columns, no borders. Every cell is
 * {@link TerminalText#escape escaped}, so a table never breaks apart on a stored newline and a
 * stored escape sequence is shown, not run.
 */
final class Table {

    private final List<String[]> rows = new ArrayList<>();
    private final int columns;

    Table(String... header) {
        this.columns = header.length;
        rows.add(header);
    }

    Table row(Object... cells) {
        if (cells.length != columns) {
            throw new IllegalArgumentException("a row of " + cells.length + " cells in a table of " + columns);
        }
        String[] text = new String[columns];
        for (int i = 0; i < columns; i++) {
            text[i] = cells[i] == null ? "-" : TerminalText.escape(cells[i].toString());
        }
        rows.add(text);
        return this;
    }

    boolean isEmpty() {
        return rows.size() == 1;
    }

    void print(PrintWriter out) {
        int[] width = new int[columns];
        for (String[] row : rows) {
            for (int i = 0; i < columns; i++) {
                width[i] = Math.max(width[i], row[i].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < columns; i++) {
                line.append(i == columns - 1 ? row[i] : pad(row[i], width[i] + 2));
            }
            out.println(line.toString().stripTrailing());
        }
    }

    private static String pad(String text, int width) {
        return text + " ".repeat(Math.max(0, width - text.length()));
    }
}
