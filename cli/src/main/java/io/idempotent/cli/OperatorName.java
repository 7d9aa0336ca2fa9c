package io.idempotent.cli;

/**
 * The one rule for an operator's name, for settlements and approval decisions alike, from the
 * command line and the console: it goes into the attempt log, log lines and terminals, so it is
 * short and has no character the rule for shown text hides ({@link TerminalText#isHidden}: an
 * escape sequence, a line break that forges a log line, a right-to-left override, a tag).
 */
final class OperatorName {

    /** The longest operator's name. */
    static final int MAX_LENGTH = 100;

    private OperatorName() {
    }

    /** The operator's name as recorded (stripped), or refused with {@link RefusedException}. */
    static String require(String operator) {
        String name = operator == null ? "" : operator.strip();
        if (name.isEmpty()) {
            throw new RefusedException("a decision needs the operator's name (who decided, for the attempt log);"
                    + " nothing was changed");
        }
        if (name.length() > MAX_LENGTH) {
            throw new RefusedException("the operator's name has " + name.length() + " characters, more than the "
                    + MAX_LENGTH + " allowed; nothing was changed");
        }
        String hidden = TerminalText.firstHidden(name);
        if (hidden != null) {
            throw new RefusedException("the operator's name contains the control character " + hidden
                    + "; nothing was changed");
        }
        return name;
    }
}
