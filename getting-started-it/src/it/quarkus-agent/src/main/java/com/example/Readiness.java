package com.example;

import io.smallrye.health.SmallRyeHealth;
import io.smallrye.health.SmallRyeHealthReporter;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.List;

/**
 * Asks Quarkus's health reporter for readiness, as /q/health/ready does, and checks it against the
 * expected status (UP or DOWN) and entries {@code name=text}: the check "idempotent"'s data entry
 * {@code name} must contain {@code text} (a number or flag: be it).
 */
final class Readiness {

    private Readiness() {
    }

    /** Null when readiness is as expected, else what differs. */
    static String differs(SmallRyeHealthReporter health, String expected, List<String> entries) {
        SmallRyeHealth readiness = health.getReadiness();
        JsonObject payload = readiness.getPayload();
        System.out.println("quarkus-health: readiness " + payload);
        String status = readiness.isDown() ? "DOWN" : "UP";
        if (!status.equals(expected)) {
            return "readiness is " + status + ", expected " + expected;
        }
        JsonObject data = null;
        for (JsonValue check : payload.getJsonArray("checks")) {
            if (check.asJsonObject().getString("name").equals("idempotent")) {
                data = check.asJsonObject().getJsonObject("data");
                if (!check.asJsonObject().getString("status").equals(status)) {
                    return "the check idempotent is " + check.asJsonObject().getString("status");
                }
            }
        }
        if (data == null) {
            return "no readiness check named idempotent";
        }
        for (String entry : entries) {
            String name = entry.substring(0, entry.indexOf('='));
            String text = entry.substring(name.length() + 1);
            JsonValue value = data.get(name);
            String actual = value instanceof JsonString string ? string.getString() : String.valueOf(value);
            if (value == null || (value instanceof JsonString ? !actual.contains(text) : !actual.equals(text))) {
                return "the check's " + name + " does not contain " + text;
            }
        }
        System.out.println("quarkus-health: " + status + " as expected");
        return null;
    }
}
