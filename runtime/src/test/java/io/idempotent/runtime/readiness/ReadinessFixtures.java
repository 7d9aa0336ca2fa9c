package io.idempotent.runtime.readiness;

import io.idempotent.runtime.agent.WovenAtBuild;

/** Listed classes for {@link ToolReadinessTest}: one as the build plugin leaves it, one never wrapped. */
final class ReadinessFixtures {

    private ReadinessFixtures() {
    }

    /** Carries the build plugin's mark, as a class woven at build time does. */
    @WovenAtBuild(format = WovenAtBuild.FORMAT, plugin = "test")
    static final class WovenTools {
        public String wovenTool(String id) {
            return id;
        }
    }

    /** Neither woven nor wrapped: this test JVM has no agent. */
    static final class PlainTools {
        public String plainTool(String id) {
            return id;
        }
    }
}
