package io.idempotent.cli;

import java.time.Instant;

/**
 * A settlement the operator reviewed and has not confirmed yet. Its id is random and single-use;
 * the confirmation carries only the id, so what is confirmed is exactly what was reviewed, and only
 * the session that reviewed it can confirm it.
 */
record PendingSettlement(String id, String session, String tool, String key, boolean applied, String resultJson,
        String reason, String operator, Instant expires) {
}
