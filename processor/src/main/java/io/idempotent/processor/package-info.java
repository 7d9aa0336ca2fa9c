/**
 * The release gate: a javac annotation processor that validates each {@code @IdempotentTool}
 * method into one model, reports every unanswered question on the annotation value that is
 * wrong, and writes the bindings and {@code META-INF/idempotent/tools.json} for valid models
 * only. <strong>Not for public use:</strong> users put the processor on their annotation
 * processor path; nothing here is an API.
 */
package io.idempotent.processor;
