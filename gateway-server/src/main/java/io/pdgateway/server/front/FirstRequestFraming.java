package io.pdgateway.server.front;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

/**
 * Puts the {@link StrictFramingDecoder} in place on an HTTP/1.x connection of a listener with h2c on, where Vert.x
 * hands the connection over only after its own decoder has read the first request's head (it had to see whether the
 * request asks for an upgrade). Swapping decoders then would hand the new one the rest of that request, its body, as
 * if it were the start of the next: the body was lost and the request hung. Sitting right behind Vert.x's decoder,
 * this waits for the first request's last content and swaps there, at a request boundary, where the old decoder passes
 * what it holds of the next request on to the new one.
 *
 * <p>The first request itself was framed by Vert.x's lenient decoder, which reads a body as chunked even beside a
 * Content-Length (and drops that header, so no one after it can tell). When it carried a Transfer-Encoding the
 * connection is {@link #inDoubt}: nothing after it is read, and {@link ClientConnections} closes the connection once
 * it is answered, as RFC 9112 §6.1 asks of a server that reads such a request. Runs on the connection's event loop.
 */
final class FirstRequestFraming extends ChannelInboundHandlerAdapter {
    static final String PIPELINE_NAME = "pdFirstRequestFraming";

    private final StrictFramingDecoder strict;
    private boolean inDoubt;
    /** The first request's last content has passed, and the connection was in doubt: later messages are dropped. */
    private boolean dropping;

    FirstRequestFraming(StrictFramingDecoder strict) {
        this.strict = strict;
    }

    /** The first request carried a Transfer-Encoding: no request after it is read on this connection. */
    void inDoubt() {
        inDoubt = true;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (dropping) {
            ReferenceCountUtil.release(msg);
            return;
        }
        boolean last = msg instanceof LastHttpContent;
        ctx.fireChannelRead(msg);
        if (!last) {
            return;
        }
        if (inDoubt) {
            dropping = true;
            return;
        }
        if (!ctx.channel().isActive() || ctx.isRemoved()) {
            return; // the answer closed the connection: nothing more will be read on it
        }
        // This handler goes first, so the next request, which the old decoder passes on as it leaves, is decoded by
        // the strict one and reaches Vert.x directly.
        ChannelPipeline pipeline = ctx.pipeline();
        pipeline.remove(this);
        pipeline.replace(StrictFramingDecoder.PIPELINE_NAME, StrictFramingDecoder.PIPELINE_NAME, strict);
    }
}
