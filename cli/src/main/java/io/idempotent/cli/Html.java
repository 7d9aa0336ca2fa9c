package io.idempotent.cli;

/**
 * HTML escaping and the page frame. Every value shown on a page passes through {@link #text}: the
 * one rule for shown text ({@link TerminalText#escape}: controls, bidirectional controls, tags
 * and other invisible code points as {@code \}{@code uXXXX} / {@code \}{@code u{XXXXX}}, the same
 * escapes as the command line's), then HTML's, inside its own left-to-right isolate
 * ({@code <bdi dir="ltr">}), so that no stored text, right-to-left letters included, reorders the
 * text around it. Values that go back to the console unchanged (hidden form fields, links) pass
 * through {@link #attribute} instead: they are never shown.
 */
final class Html {

    private Html() {
    }

    /** {@code value} as a page shows it: escaped and isolated; a dash for null. */
    static String text(Object value) {
        if (value == null) {
            return "&ndash;";
        }
        return "<bdi dir=\"ltr\">" + markup(TerminalText.escape(value.toString())) + "</bdi>";
    }

    /** {@code value} as an attribute's content (a hidden field, a link), HTML-escaped and otherwise as it is. */
    static String attribute(String value) {
        return markup(value);
    }

    private static String markup(String s) {
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    static String page(String title, String body) {
        return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + markup(TerminalText.escape(title))
                + " - idempotent console</title><style>"
                + "body{font-family:system-ui,sans-serif;margin:2em;max-width:72em;color:#222}"
                + "table{border-collapse:collapse;margin:0.5em 0 1.5em}"
                + "th,td{border:1px solid #ccc;padding:0.25em 0.6em;text-align:left;vertical-align:top}"
                + "th{background:#f3f3f3}code,pre{font-family:ui-monospace,monospace}"
                + "pre{white-space:pre-wrap;word-break:break-all;margin:0}"
                + "form{border:1px solid #ccc;padding:1em;margin:1em 0;max-width:40em}"
                + "label{display:block;margin:0.5em 0 0.2em}input[type=text],input[type=password],textarea"
                + "{width:100%;box-sizing:border-box}.notice{background:#eef7ee;padding:0.5em 1em}"
                + ".error{background:#fbeaea;padding:0.5em 1em}</style></head><body>"
                + "<p><a href=\"/\">Reconciliation queue</a> | <a href=\"/approvals\">Approval queue</a></p>" + body
                + "</body></html>\n";
    }
}
