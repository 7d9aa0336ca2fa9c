/**
 * LangChain4j integration: {@link io.idempotent.langchain4j.IdempotentToolErrorHandler} (what the
 * model is told), {@link io.idempotent.langchain4j.IdempotentToolExecutor} (the same for executors
 * built by hand) and {@link io.idempotent.langchain4j.StepFromInvocationParameters} (the
 * workflow's step on LangChain4j's threads).
 */
package io.idempotent.langchain4j;
