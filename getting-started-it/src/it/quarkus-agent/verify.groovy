// The agent's own account of the fast-jar: every listed tool counted at start (never "wrapped 0"),
// the class confirmed as wrapped when Quarkus's loader loads it, in both JVMs with the agent (the first
// with failOnMissingRuntime=true, which finds the runtime in lib/main; the second with a refused store),
// and no ERROR from the agent, no fatal error. Then readiness as each run expected it (the runs exit 1 otherwise).
def log = new File(basedir, 'build.log').text
def starts = log.readLines().findAll { it.startsWith('[idempotent-agent] started:') }
assert starts.size() == 2 : "two agent start lines expected (first, store-down):\n" + log
starts.each {
    assert it.startsWith("[idempotent-agent] started: will wrap 1 tool method(s) when the application's class loader loads their classes (a line each); 1 listed in META-INF/idempotent/tools.json in a Quarkus fast-jar") : it
}
assert log.readLines().count { it.startsWith('[idempotent-agent] com.example.RefundService: wrapped 1 tool method(s) (1 of the 1 listed') } == 2 : log
assert !log.contains('wrapped 0') : log
assert !log.contains('[idempotent-agent] ERROR') : log
assert !log.contains('FATAL') : log
assert !log.contains('AUTO_SERVER') : log
assert log.contains('quarkus: first: one refund at the provider through RefundService_ClientProxy, with the agent') : log
assert log.readLines().count { it.startsWith('quarkus: ready: 1 of 1 listed tool(s) run through the protocol') } == 1 : log
assert log.readLines().count { it.startsWith('quarkus-health: UP as expected') } == 1 : log
assert log.readLines().count { it.startsWith('quarkus-health: DOWN as expected') } == 2 : log
return true
