/**
 * What the agent and the build plugin share: which methods are tools, the advice inlined into
 * them, the refusals and the woven mark. <strong>Not for public use:</strong> the agent carries a
 * relocated copy (against its shaded Byte Buddy), the plugin uses the build's own Byte Buddy.
 */
package io.idempotent.build.weaving;
