package io.pdgateway.epp;

import com.google.protobuf.ByteString;
import io.pdgateway.server.front.ApiError;
import io.pdgateway.server.front.HeldBodies;
import java.io.ByteArrayOutputStream;

/**
 * One ext_proc stream's request body as Envoy sends it, gathered under serve's two bounds: the limit on one body
 * (PD_GATEWAY_MAX_REQUEST_BODY_BYTES) and on the bodies the gateway holds at once ({@link HeldBodies}), in whose count
 * it stays until Envoy has been sent on with it or its stream ends. On the stream's context only.
 */
final class PickerBody {
    /** Why a chunk was not kept: the pd_gateway_rejected_requests_total reason, and the answer. */
    record Refusal(String reason, ApiError error) {}

    private final int limit;
    private final HeldBodies.Account held;
    /** The chunks so far; null once taken whole (the request keeps the bytes from then on). */
    private ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    PickerBody(int limit, HeldBodies.Account held) {
        this.limit = limit;
        this.held = held;
    }

    /** Adds a chunk; null when kept, else why not. */
    Refusal add(ByteString chunk) {
        if (bytes.size() + chunk.size() > limit) {
            return new Refusal("body_too_large", ApiError.of(413, "request body larger than " + limit + " bytes",
                    "request_too_large"));
        }
        if (!held.hold(chunk.size())) {
            return new Refusal(HeldBodies.FULL, HeldBodies.refusal());
        }
        bytes.writeBytes(chunk.toByteArray());
        return null;
    }

    /** The whole body; the buffer goes, the bytes stay counted until {@link #release}. */
    byte[] take() {
        byte[] raw = bytes.toByteArray();
        bytes = null;
        return raw;
    }

    /** Envoy has the body it sends on, or the stream ended: its bytes leave the count. Idempotent. */
    void release() {
        held.release();
    }
}
