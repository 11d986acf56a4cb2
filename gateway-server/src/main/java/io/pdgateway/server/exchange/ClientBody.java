package io.pdgateway.server.exchange;

import io.pdgateway.server.front.OpenAiRequest;

/**
 * The client's body as an exchange's legs are built from it: the request (its bytes and the top-level members its scan
 * noted) and what the engine adapter's admission made of it. Kept only while another leg or another attempt may still
 * be built from them; a held stream then needs none of it, and 10,000 held streams kept each its body, a tree of it and
 * the plan's leg bodies (issue 16). On the exchange's event loop only.
 */
public final class ClientBody {
    private OpenAiRequest request;
    private Object admitted;
    private final Runnable released;

    /**
     * @param admitted what the adapter's admission parsed of the body, or null
     * @param released told when the body goes (the gateway's count of held bodies gives its bytes back)
     */
    public ClientBody(OpenAiRequest request, Object admitted, Runnable released) {
        this.request = request;
        this.admitted = admitted;
        this.released = released;
    }

    /** The request; only while {@link #held()}. */
    OpenAiRequest request() {
        if (request == null) {
            throw new IllegalStateException("the client's body was released: no leg is built from it any more");
        }
        return request;
    }

    Object admitted() {
        return admitted;
    }

    boolean held() {
        return request != null;
    }

    /** No leg will be built from the body any more: let it go. */
    void release() {
        request = null;
        admitted = null;
        released.run();
    }
}
