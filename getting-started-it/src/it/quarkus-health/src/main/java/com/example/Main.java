package com.example;

import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import io.smallrye.health.SmallRyeHealth;
import io.smallrye.health.SmallRyeHealthReporter;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * Asks Quarkus's health reporter for readiness, as /q/health/ready does, and checks it: the first
 * argument is the expected status (UP or DOWN), each further one {@code name=text}: the check
 * "idempotent"'s data entry {@code name} must contain {@code text} (a number or flag: be it). A non-zero exit status
 * when it differs.
 */
@QuarkusMain
public class Main implements QuarkusApplication {

    @Inject
    SmallRyeHealthReporter health;

    @Override
    public int run(String... args) {
        SmallRyeHealth readiness = health.getReadiness();
        JsonObject payload = readiness.getPayload();
        System.out.println("quarkus-health: readiness " + payload);
        String status = readiness.isDown() ? "DOWN" : "UP";
        if (!status.equals(args[0])) {
            return fail("readiness is " + status + ", expected " + args[0]);
        }
        JsonObject data = null;
        for (JsonValue check : payload.getJsonArray("checks")) {
            if (check.asJsonObject().getString("name").equals("idempotent")) {
                data = check.asJsonObject().getJsonObject("data");
                if (!check.asJsonObject().getString("status").equals(status)) {
                    return fail("the check idempotent is " + check.asJsonObject().getString("status"));
                }
            }
        }
        if (data == null) {
            return fail("no readiness check named idempotent");
        }
        for (int i = 1; i < args.length; i++) {
            String name = args[i].substring(0, args[i].indexOf('='));
            String text = args[i].substring(name.length() + 1);
            JsonValue value = data.get(name);
            String actual = value instanceof JsonString string ? string.getString() : String.valueOf(value);
            if (value == null || (value instanceof JsonString ? !actual.contains(text) : !actual.equals(text))) {
                return fail("the check's " + name + " does not contain " + text);
            }
        }
        System.out.println("quarkus-health: " + status + " as expected");
        return 0;
    }

    private static int fail(String failure) {
        System.err.println("quarkus-health: FAILED: " + failure);
        return 1;
    }
}
