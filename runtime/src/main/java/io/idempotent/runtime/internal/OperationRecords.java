package io.idempotent.runtime.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.idempotent.runtime.AttemptOutcome;
import io.idempotent.runtime.AttemptPage;
import io.idempotent.runtime.OperationRecord;
import io.idempotent.runtime.internal.store.OperationStore;
import io.idempotent.runtime.internal.store.StoredOperation;
import java.util.EnumSet;

/**
 * What an operator and a reconciler see of an operation: its row as an {@link OperationRecord},
 * the stored payload read as JSON, with the first page of its attempt log and the log's size.
 */
final class OperationRecords {

    private final ResultCodec results;

    /** Records read with {@code results}' mapper. */
    OperationRecords(ResultCodec results) {
        this.results = results;
    }

    /** The operator's and reconciler's view of a row, with the first page of its attempt log and its size. */
    OperationRecord record(OperationStore store, StoredOperation op) {
        JsonNode payload;
        try {
            payload = results.mapper().readTree(op.payloadJson());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the stored payload of " + op.key() + " is not JSON", e);
        }
        // A looping caller can give one key thousands of answers: load the first page, oldest first.
        AttemptPage first = store.attempts(op.tool(), op.key(), EnumSet.allOf(AttemptOutcome.class), 0,
                AttemptPage.FIRST_PAGE);
        return new OperationRecord(op.key(), op.tool(), op.status(), op.payloadHash(), payload, op.downstreamId(),
                op.resultJson(), op.errorJson(), op.attempts(), op.leaseToken(), op.leaseUntil(), op.effectStarted(),
                op.createdAt(), op.updatedAt(), op.expiresAt(), first.attempts(), first.total());
    }
}
