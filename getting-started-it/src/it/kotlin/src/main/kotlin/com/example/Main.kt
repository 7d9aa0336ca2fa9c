package com.example

import io.idempotent.kotlin.StepContext
import io.idempotent.runtime.IdempotentRuntime
import io.idempotent.runtime.Step
import java.nio.file.Files
import kotlin.system.exitProcess
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext

/**
 * Runs with the agent (exec:exec, twice, so in two JVMs): each run calls every tool twice under one
 * step (from the caller's thread, through the companion and its static bridge, and from
 * withContext(Dispatchers.IO) with the step carried by StepContext); the provider must have seen
 * each effect once in all. Exits non-zero otherwise.
 */
fun main() {
    val tools = RefundTools()
    val results = mutableListOf<Any>()
    Step.begin("kotlin:approve-842").use {
        results += tools.issueRefund("invoice_842", 4200)
        results += tools.issueRefund("invoice_842", 4200)
        results += tools.noteInvoice("invoice_842")
        results += tools.noteInvoice("invoice_842")
        results += RefundTools.deploy("billing")            // Kotlin: the companion's member
        results += RefundTools::class.java.getMethod("deploy", String::class.java)
            .invoke(null, "billing")                          // Java's way in: the static bridge
        runBlocking(StepContext.current()) {
            results += withContext(Dispatchers.IO) { tools.issueRefund("invoice_900", 100) }
            results += withContext(Dispatchers.IO) { tools.issueRefund("invoice_900", 100) }
        }
    }
    val effects = Files.readAllLines(RefundTools.PROVIDER)
    val expected = listOf("refund invoice_842", "note invoice_842", "deploy billing", "refund invoice_900")
    val stored = IdempotentRuntime.global().operations().find("noteInvoice", "note:invoice_842:kotlin:approve-842")
    if (effects.sorted() != expected.sorted() || results[0] != results[1] || results[0] != Refund("re_invoice_842", 4200)
        || results[4] != results[5] || results[6] != results[7] || stored.isEmpty) {
        System.err.println("kotlin: FAILED: effects $effects, results $results, internal tool stored as noteInvoice: "
            + stored.isPresent)
        exitProcess(1)
    }
    println("kotlin: each tool ran once (${effects.size} effects), replayed: $results")
}
