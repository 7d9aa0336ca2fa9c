package io.idempotent.examples.agent;

import io.idempotent.runtime.HttpOutboxSender;
import io.idempotent.runtime.IdempotentRuntime;
import io.idempotent.runtime.OutboxRelay;
import io.idempotent.runtime.OutboxSender;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;

/**
 * The relay of docs/outbox.md: delivers what the credit tool sent through the outbox to the
 * notification service's HTTP endpoint, which keeps each {@code Idempotency-Key} once.
 */
public final class NotificationRelay {

    private NotificationRelay() {
    }

    /** Starts a relay of the default store's outbox to {@code endpoint}; close it to stop it. */
    public static OutboxRelay start(IdempotentRuntime runtime, URI endpoint) {
        OutboxSender sender = new HttpOutboxSender(HttpClient.newHttpClient(),
                destination -> endpoint, Duration.ofSeconds(10), true);
        return runtime.outbox().relay("default", sender,
                OutboxRelay.Settings.defaults().withPollEvery(Duration.ofMillis(200))).start();
    }
}
