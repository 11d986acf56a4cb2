package io.pdgateway.server.front;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The request bodies the gateway holds at once, all requests together, bounded by PD_GATEWAY_MAX_HELD_BODY_BYTES.
 * Every body sits in the heap from its first byte until no leg will be built from it any more, and the bound on one
 * body (PD_GATEWAY_MAX_REQUEST_BODY_BYTES) does not bound them all: 3,000 prompts of 200 KB sent at once took a 512 MB
 * heap to OutOfMemoryError, and with it every stream the gateway held. A body is counted as its bytes arrive (its
 * buffer presized from Content-Length when the first of them do, so a client that declares a body and sends nothing
 * holds nothing) until its request lets it go or ends, and a request that would pass the bound is refused and keeps
 * none of it. One body always fits when nothing else is held, so a bound below the
 * largest body accepted never refuses a request outright.
 */
public final class HeldBodies {
    /** The pd_gateway_rejected_requests_total reason, and the error code, of a request refused at the bound. */
    public static final String FULL = "held_bodies_full";
    private final AtomicLong held = new AtomicLong();
    private final long limit;

    /** @param limit the bytes held at once at most */
    public HeldBodies(long limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("the held-body limit must be positive, was " + limit);
        }
        this.limit = limit;
    }

    /** The answer to a request refused at the bound: it can come back once some bodies have gone. */
    public static ApiError refusal() {
        return ApiError.of(503, "the gateway holds as many request bodies as PD_GATEWAY_MAX_HELD_BODY_BYTES allows; "
                + "retry shortly", FULL).withRetryAfter(1);
    }

    /** A new request's account, holding nothing yet. */
    public Account open() {
        return new Account();
    }

    /** The bytes held now, all requests together. */
    public long held() {
        return held.get();
    }

    public long limit() {
        return limit;
    }

    private boolean tryAdd(long bytes) {
        while (true) {
            long now = held.get();
            if (now > 0 && now + bytes > limit) {
                return false;
            }
            if (held.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    /**
     * One request's share. Its request's event loop holds and lets go; its end may be seen from the response's side
     * and from the exchange's, so letting go twice gives back once.
     */
    public final class Account {
        private long bytes;
        private boolean closed;

        private Account() {}

        /** Counts {@code more} bytes for this request; false, counting nothing, when they would pass the bound. */
        public synchronized boolean hold(long more) {
            if (closed || !tryAdd(more)) {
                return false;
            }
            bytes += more;
            return true;
        }

        /** The request needs its body no more (or ended): gives its bytes back; holds nothing after. */
        public synchronized void release() {
            closed = true;
            if (bytes > 0) {
                held.addAndGet(-bytes);
                bytes = 0;
            }
        }
    }
}
