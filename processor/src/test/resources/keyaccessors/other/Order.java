package keyaccessors.other;

/** An argument type of another package than the tools: every kind of member a key may or may not read. */
public class Order {
    public String region = "EU";
    public static String DEFAULT_REGION = "EU";
    String hidden = "h";

    public String getCode() { return "c7"; }
    public boolean isPaid() { return true; }
    /** Not a boolean, so {named} does not read it: only {isNamed} would. */
    public String isNamed() { return "n"; }
    public String get() { return "g"; }
    public boolean is() { return false; }
    /** Package-private in another package than the tool: the binding could not call it. */
    String note() { return "x"; }
}
