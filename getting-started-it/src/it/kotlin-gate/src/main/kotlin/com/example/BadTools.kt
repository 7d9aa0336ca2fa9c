package com.example

import io.idempotent.annotations.IdempotentTool
import io.idempotent.annotations.Retry

/** Without jackson-module-kotlin, the runtime cannot read this back: the gate refuses it as a result. */
data class Receipt(val receiptId: String)

/** Two tools the gate refuses; postbuild.groovy expects each error at the line marked below. */
class BadTools {

    @IdempotentTool(key = "receipt:{orderId}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    fun issueReceipt(orderId: String): Receipt = Receipt("rc_$orderId")   // line 13: IdemResultReadBack

    @IdempotentTool(key = "ship:{parcel}:{step}", downstreamKey = true, downstreamRetention = "P1D", retry = Retry.SAFE)
    fun ship(orderId: String): String = "shipped $orderId"               // line 16: IdemKeyPlaceholder
}
