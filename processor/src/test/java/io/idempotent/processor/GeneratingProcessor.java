package io.idempotent.processor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.Map;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;

/**
 * Another processor of the same build, as AutoValue or MapStruct would be: in its first round it
 * generates the types that {@code deferred/UsesGeneratedTypes.java} names, so in that round they
 * are still undefined (error types) for every processor.
 */
final class GeneratingProcessor extends AbstractProcessor {

    private static final Map<String, String> SOURCES = Map.of(
            "deferred.GeneratedInvoice", "package deferred;\npublic record GeneratedInvoice(String id,"
                    + " GeneratedCustomer customer, long amountCents) {}\n",
            "deferred.GeneratedCustomer", "package deferred;\npublic record GeneratedCustomer(String id) {}\n",
            "deferred.GeneratedReceipt", "package deferred;\npublic record GeneratedReceipt(String refundId) {}\n");

    private boolean generated;

    @Override
    public Set<String> getSupportedAnnotationTypes() {
        return Set.of("*");
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
        return SourceVersion.latestSupported();
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
        if (generated) {
            return false;
        }
        generated = true;
        SOURCES.forEach((name, source) -> {
            try (Writer out = processingEnv.getFiler().createSourceFile(name).openWriter()) {
                out.write(source);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        return false;
    }
}
