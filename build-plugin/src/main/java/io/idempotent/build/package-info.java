/**
 * The build plugin: {@link io.idempotent.build.IdempotentPlugin}, applied by Byte Buddy's Maven or
 * Gradle plugin, weaves the agent's advice into the tool methods at build time.
 */
package io.idempotent.build;
