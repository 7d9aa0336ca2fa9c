package io.idempotent.cli;

/** HTML text escaping and the page frame. Every value from the store passes through {@link #text}. */
final class Html {

    private Html() {
    }

    /** {@code value} as HTML text or attribute content. */
    static String text(Object value) {
        if (value == null) {
            return "&ndash;";
        }
        String s = value.toString();
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
        return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + text(title)
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
