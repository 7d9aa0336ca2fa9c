package org.springframework.ai.mcp.annotation;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** A stand-in for Spring AI's @McpTool (2.0.1), with its hints' defaults. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface McpTool {
    String name() default "";

    String description() default "";

    McpAnnotations annotations() default @McpAnnotations;

    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.ANNOTATION_TYPE)
    @interface McpAnnotations {
        String title() default "";

        boolean readOnlyHint() default false;

        boolean destructiveHint() default true;

        boolean idempotentHint() default false;

        boolean openWorldHint() default true;
    }
}
