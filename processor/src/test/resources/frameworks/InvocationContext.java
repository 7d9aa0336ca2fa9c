package dev.langchain4j.invocation;

import java.util.UUID;

/** The shape of LangChain4j's InvocationContext that the processor relies on. */
public interface InvocationContext {
    UUID invocationId();

    InvocationParameters invocationParameters();
}
