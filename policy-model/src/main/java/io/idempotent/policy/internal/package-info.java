/**
 * Not for users: the one home of the rules that the annotation processor, the runtime and the
 * javaagent must apply alike (store names, configuration keys, credentials in URLs, binding class
 * names, the annotation's defaults, key templates, the consistency of a tool's policy, the one-pass
 * types a payload must not hold, the reading of the release-gate tables per class loader). The
 * runtime depends on this module; the processor and the agent carry a relocated copy of it, so no
 * user ever sees these classes on a class path under this name except through the runtime. Any
 * type here may change in any release.
 */
package io.idempotent.policy.internal;
