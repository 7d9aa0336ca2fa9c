package com.example

import io.idempotent.annotations.IdempotentTool
import io.idempotent.annotations.Retry
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.StandardOpenOption

/** The result every Kotlin user writes first: a data class, read back by jackson-module-kotlin. */
data class Refund(val refundId: String, val amountCents: Long)

/** Each body appends one line to the provider's file: the effects, counted across both JVMs. */
class RefundTools {

    @IdempotentTool(key = "refund:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
        retry = Retry.SAFE)
    fun issueRefund(invoiceId: String, amountCents: Long): Refund {
        effect("refund $invoiceId")
        return Refund("re_$invoiceId", amountCents)
    }

    /** Stored as "noteInvoice", not "noteInvoice$kotlin_tools": the module's name is no part of it. */
    @IdempotentTool(key = "note:{invoiceId}:{step}", downstreamKey = true, downstreamRetention = "P1D",
        retry = Retry.SAFE)
    internal fun noteInvoice(invoiceId: String): String {
        effect("note $invoiceId")
        return "noted $invoiceId"
    }

    companion object {
        val PROVIDER: Path = Path.of("target", "provider.txt")

        /** One tool, though Kotlin writes it twice (the companion's member and a static bridge). */
        @JvmStatic
        @IdempotentTool(key = "deploy:{service}:{step}", downstreamKey = true, downstreamRetention = "P1D",
            retry = Retry.SAFE)
        fun deploy(service: String): String {
            effect("deploy $service")
            return "deployed $service"
        }

        fun effect(line: String) {
            Files.writeString(PROVIDER, line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND)
        }
    }
}
