// The agent in a shaded jar: the table and the runtime are on the class path, so the tool is wrapped at
// start; failOnMissingRuntime=true finds the runtime inside the jar. No ERROR, no fatal error.
def log = new File(basedir, 'build.log').text
def starts = log.readLines().findAll { it.startsWith('[idempotent-agent] started:') }
assert starts.size() == 1 : "one agent start line expected:\n" + log
starts.each {
    assert it.startsWith('[idempotent-agent] started: wrapped 1 tool method(s), 1 listed in META-INF/idempotent/tools.json;') : it
}
assert !log.contains('wrapped 0') : log
assert !log.contains('[idempotent-agent] ERROR') : log
assert !log.contains('FATAL') : log
assert !log.contains('AUTO_SERVER') : log
assert log.contains('micronaut: first: one refund at the provider, with the agent') : log
assert log.readLines().count { it.startsWith('micronaut: ready: 1 of 1 listed tool(s) run through the protocol') } == 1 : log
return true
