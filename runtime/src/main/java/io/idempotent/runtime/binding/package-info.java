/**
 * The contract between the annotation processor and the runtime: the generated
 * {@link io.idempotent.runtime.binding.ToolBindings} classes implement these types, and the
 * runtime reads each tool's policy from them. Generated code and the runtime call it;
 * application code may pass a generated binding to {@code IdempotentRuntime.call(...)} and may
 * build a {@link io.idempotent.runtime.binding.ToolPolicy} for a tool it runs without the agent,
 * but should not implement these interfaces by hand.
 */
package io.idempotent.runtime.binding;
