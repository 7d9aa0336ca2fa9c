package io.idempotent.processor;

import io.idempotent.policy.internal.ApprovalRules;
import io.idempotent.policy.internal.KeyTemplate;
import io.idempotent.policy.internal.ReleaseGateTable;
import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.stream.Collectors;
import javax.annotation.processing.Filer;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.tools.StandardLocation;

/**
 * Writes {@code META-INF/idempotent/tools.json}: the release-gate table, one entry per tool with
 * the five answers and whether a person approves each operation, for the reviewer of a pull request (and for the agent, which counts the
 * tools it will wrap). Hand-written JSON, so the processor needs no JSON library.
 */
final class ReleaseGateWriter {

    static final String RESOURCE = ReleaseGateTable.RESOURCE;
    /** The runtime's Step.CONTEXT_KEY, named in the table (the processor does not load the runtime). */

    private final Filer filer;

    ReleaseGateWriter(Filer filer) {
        this.filer = filer;
    }

    void write(List<ToolModel> tools) throws IOException {
        Element[] origins = tools.stream().map(ToolModel::method).toArray(Element[]::new);
        try (Writer out = filer.createResource(StandardLocation.CLASS_OUTPUT, "", RESOURCE, origins).openWriter()) {
            out.write(json(tools));
        }
    }

    static String json(List<ToolModel> tools) {
        StringBuilder s = new StringBuilder("{\n  \"generatedBy\": \"idempotent-processor\",\n  \"tools\": [");
        for (int i = 0; i < tools.size(); i++) {
            s.append(i == 0 ? "\n" : ",\n").append(entry(tools.get(i)));
        }
        return s.append("\n  ]\n}\n").toString();
    }

    private static String entry(ToolModel t) {
        List<String> payload = t.payload().stream().map(ToolModel.Parameter::name).toList();
        List<String> notPayload = t.parameters().stream().filter(p -> !p.payload() && p.context() == null)
                .map(ToolModel.Parameter::name)
                .toList();
        List<String> fromArguments = t.keyParts().stream().filter(p -> p instanceof KeyPart.Argument)
                .map(p -> ((KeyPart.Argument) p).placeholder()).distinct().toList();
        ToolModel.Parameter source = t.contextSource();
        String step = source == null ? "the workflow step ({step})"
                : "the workflow step ({step}: entry " + KeyTemplate.STEP_CONTEXT_ENTRY + " of " + source.name() + ", else the thread's Step)";
        List<String> entries = t.keyParts().stream().filter(p -> p instanceof KeyPart.ContextEntry)
                .map(p -> ((KeyPart.ContextEntry) p).placeholder()).distinct().toList();
        String fromContext = entries.isEmpty() ? "" : (t.usesStep() ? " and " : "") + "the context entries "
                + String.join(", ", entries) + " of " + source.name();
        String suppliedBy = (t.usesStep() ? step : "") + fromContext
                + ((t.usesStep() || !entries.isEmpty()) && !fromArguments.isEmpty() ? " and " : "")
                + (fromArguments.isEmpty() ? "" : "the arguments " + String.join(", ", fromArguments));
        String reconciler = t.reconciler() == null ? "none"
                : t.manualReview() ? "ManualReview (a person decides)" : t.reconciler().getQualifiedName().toString();
        String params = t.parameters().stream().map(p -> p.type() + " " + p.name()).collect(Collectors.joining(", "));
        TypeElement toolClass = t.toolClass();
        return "    {\n"
                + field("name", t.name()) + ",\n"
                + field("class", toolClass.getQualifiedName().toString()) + ",\n"
                + field("method", t.method().getSimpleName() + "(" + params + ")") + ",\n"
                + field("result", t.returnType().toString()) + ",\n"
                + "      \"key\": {\n  " + field("template", t.keyTemplate()) + ",\n  "
                + field("suppliedBy", suppliedBy) + "\n      },\n"
                + field("store", t.store()) + ",\n"
                + "      \"payload\": " + array(payload) + ",\n"
                + "      \"notPayload\": " + array(notPayload) + ",\n"
                + "      \"context\": " + array(t.context().stream()
                        .map(ReleaseGateWriter::context).toList()) + ",\n"
                + "      \"downstreamKey\": " + t.downstreamKey() + ",\n"
                + "      \"downstreamRetention\": " + (t.downstreamRetention() == null ? "null"
                        : quote(t.downstreamRetention())) + ",\n"
                + field("reconciler", reconciler) + ",\n"
                + field("retry", t.retry()) + ",\n"
                + field("effectBoundary", t.effectBoundary()) + ",\n"
                + "      \"notAppliedOn\": " + array(t.notAppliedOn().stream()
                        .map(e -> e.getQualifiedName().toString()).toList()) + ",\n"
                + field("lease", t.lease()) + ",\n"
                + field("retention", t.retention()) + ",\n"
                + field("approval", ApprovalRules.describe(t.approvalRequired(), t.approvalValidity())) + ",\n"
                // Question 4's answer for a transactional tool: the effect commits with the record.
                + "      \"transactional\": " + t.transactional() + ",\n"
                // The outbox is the other answer a body gives in code (send); declared, the table shows it.
                + "      \"outbox\": " + array(t.outbox()) + "\n"
                + "    }";
    }

    /** A context parameter as the table lists it: its name, type and, for the memory id, the annotation. */
    private static String context(ToolModel.Parameter p) {
        return p.name() + ": " + (p.context() == ContextParameter.LANGCHAIN4J_MEMORY_ID
                ? "@" + p.context().qualifiedName() + " " : "") + p.type();
    }

    private static String field(String name, String value) {
        return "      " + quote(name) + ": " + quote(value);
    }

    private static String array(List<String> values) {
        return values.stream().map(ReleaseGateWriter::quote).collect(Collectors.joining(", ", "[", "]"));
    }

    static String quote(String value) {
        StringBuilder s = new StringBuilder("\"");
        for (char c : value.toCharArray()) {
            switch (c) {
                case '"' -> s.append("\\\"");
                case '\\' -> s.append("\\\\");
                case '\n' -> s.append("\\n");
                case '\r' -> s.append("\\r");
                case '\t' -> s.append("\\t");
                default -> {
                    if (c < 0x20) {
                        s.append(String.format("\\u%04x", (int) c));
                    } else {
                        s.append(c);
                    }
                }
            }
        }
        return s.append('"').toString();
    }
}
