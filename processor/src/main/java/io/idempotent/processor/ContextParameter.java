package io.idempotent.processor;

import java.util.List;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Types;

/**
 * The agent frameworks' context parameters, recognised by qualified name so that the processor
 * needs none of the frameworks on its own class path. Such a parameter is what the framework
 * hands the tool about the call (its context map, the request, the exchange), never what the
 * model asked for: it is never payload, and {@code tools.json} lists it as context.
 *
 * <p>A kind with an accessor chain is an entry source: {@code {step}} and {@code {context.NAME}}
 * read its entries, through the framework's own accessors, in generated code that needs no
 * reflection (the type is on the user's compile class path, since the method declares it). The
 * transport-level kinds and the memory id are context without entries: the workflow's step
 * travels in the request ({@code _meta}), not in the transport, and a memory id names a
 * conversation, not a decision.
 */
enum ContextParameter {
    SPRING_AI_TOOL_CONTEXT("org.springframework.ai.chat.model.ToolContext", false, "getContext"),
    SPRING_AI_MCP_META("org.springframework.ai.mcp.annotation.McpMeta", false, "meta"),
    SPRING_AI_MCP_SYNC_REQUEST_CONTEXT("org.springframework.ai.mcp.annotation.context.McpSyncRequestContext", true,
            "requestMeta"),
    LANGCHAIN4J_INVOCATION_PARAMETERS("dev.langchain4j.invocation.InvocationParameters", true, "asMap"),
    LANGCHAIN4J_INVOCATION_CONTEXT("dev.langchain4j.invocation.InvocationContext", true, "invocationParameters",
            "asMap"),
    MCP_CALL_TOOL_REQUEST("io.modelcontextprotocol.spec.McpSchema.CallToolRequest", false, "meta"),
    MCP_TRANSPORT_CONTEXT("io.modelcontextprotocol.common.McpTransportContext", true),
    MCP_SYNC_SERVER_EXCHANGE("io.modelcontextprotocol.server.McpSyncServerExchange", true),
    /** Any parameter annotated {@code @ToolMemoryId}, whatever its type. */
    LANGCHAIN4J_MEMORY_ID("dev.langchain4j.agent.tool.ToolMemoryId", false);

    private final String qualifiedName;
    private final boolean subtypes;
    private final List<String> accessors;

    ContextParameter(String qualifiedName, boolean subtypes, String... accessors) {
        this.qualifiedName = qualifiedName;
        this.subtypes = subtypes;
        this.accessors = List.of(accessors);
    }

    /** The framework type's (or the annotation's) qualified name. */
    String qualifiedName() {
        return qualifiedName;
    }

    /**
     * The no-argument accessors that lead from the parameter to its {@code Map<String, ?>} of
     * entries; empty when the kind carries no entries the key may read.
     */
    List<String> accessors() {
        return accessors;
    }

    /** Whether {@code {step}} and {@code {context.NAME}} read this kind's entries. */
    boolean entrySource() {
        return !accessors.isEmpty();
    }

    /** The kind of a method parameter, or null when it is an ordinary parameter. */
    static ContextParameter of(VariableElement parameter, Types types) {
        for (AnnotationMirror annotation : parameter.getAnnotationMirrors()) {
            TypeElement type = (TypeElement) annotation.getAnnotationType().asElement();
            if (type.getQualifiedName().contentEquals(LANGCHAIN4J_MEMORY_ID.qualifiedName)) {
                return LANGCHAIN4J_MEMORY_ID;
            }
        }
        return ofType(parameter.asType(), types);
    }

    private static ContextParameter ofType(TypeMirror type, Types types) {
        if (!(type instanceof DeclaredType declared)) {
            return null;
        }
        String name = ((TypeElement) declared.asElement()).getQualifiedName().toString();
        for (ContextParameter kind : values()) {
            if (kind != LANGCHAIN4J_MEMORY_ID && kind.qualifiedName.equals(name)) {
                return kind;
            }
        }
        for (TypeMirror supertype : types.directSupertypes(type)) {
            ContextParameter kind = ofType(supertype, types);
            if (kind != null && kind.subtypes) {
                return kind;
            }
        }
        return null;
    }
}
