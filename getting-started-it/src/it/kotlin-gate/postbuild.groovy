// The gate's errors must point at the Kotlin source line of each refused tool, never at kapt's stubs.
def log = new File(basedir, 'build.log').text
def errors = log.readLines().findAll { it.contains('[IdemResultReadBack]') || it.contains('[IdemKeyPlaceholder]') }
assert errors.any { it.contains('BadTools.kt:13') && it.contains('[IdemResultReadBack]') } : "no IdemResultReadBack at BadTools.kt:13 in: ${errors}"
assert errors.any { it.contains('BadTools.kt:16') && it.contains('[IdemKeyPlaceholder]') } : "no IdemKeyPlaceholder at BadTools.kt:16 in: ${errors}"
assert errors.every { !it.contains('kaptStubs') } : "an error names kapt's stub: ${errors}"
true
