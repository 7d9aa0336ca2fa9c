// The agent's own account of the fat jar: every listed tool counted at start (never "wrapped 0"),
// the class confirmed as wrapped when Boot's loader loads it, in both JVMs (JDK 17 with
// failOnMissingRuntime=true, JDK 25), and no ERROR, no fatal error, no H2 server beyond loopback.
def log = new File(basedir, 'build.log').text
def starts = log.readLines().findAll { it.startsWith('[idempotent-agent] started:') }
assert starts.size() == 2 : "two agent start lines expected:\n" + log
starts.each {
    assert it.startsWith("[idempotent-agent] started: will wrap 1 tool method(s) when the application's class loader loads their classes (a line each); 1 listed in META-INF/idempotent/tools.json in a Spring Boot jar") : it
}
assert log.readLines().count { it.startsWith('[idempotent-agent] com.example.RefundService: wrapped 1 tool method(s) (1 of the 1 listed') } == 2 : log
assert !log.contains('wrapped 0') : log
assert !log.contains('[idempotent-agent] ERROR') : log
assert !log.contains('FATAL') : log
assert !log.contains('AUTO_SERVER') : log
assert log.contains('boot: first: one refund at the provider on java 17') : log
assert log.contains('boot: second: one refund at the provider on java 25') : log
assert log.readLines().count { it.startsWith('boot: ready: 1 of 1 listed tool(s) run through the protocol') } == 2 : log
return true
