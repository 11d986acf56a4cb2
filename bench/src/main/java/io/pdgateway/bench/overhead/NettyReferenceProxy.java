package io.pdgateway.bench.overhead;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The least a JVM proxy can do, as references for {@code bench overhead --netty-references}: what a proxy on the
 * gateway's own network stack (Netty, epoll, an event loop per core, a request and its upstream on one loop) costs
 * before any gateway code runs. Two modes:
 * <ul>
 *   <li>{@code http}: Netty's HTTP/1.1 codecs on both sides, every decoded head and chunk passed through as it comes,
 *       upstream connections pooled per loop: the cost of parsing and re-encoding HTTP as objects, which the gateway's
 *       Vert.x server and client both do;</li>
 *   <li>{@code tcp}: no HTTP at all, the client's bytes spliced to one upstream connection of its own and back: the
 *       JVM's and Netty's cost alone, and so the floor of a byte relay that parses only what routing needs.</li>
 * </ul>
 * Run as its own process so its CPU is its own: {@code NettyReferenceProxy MODE UPSTREAM_HOST UPSTREAM_PORT}; it
 * prints {@code listening on port N}.
 */
public final class NettyReferenceProxy {
    public static final String HTTP = "http";
    public static final String TCP = "tcp";
    static final String LISTENING = "listening on port ";

    private final EventLoopGroup loops;
    private final Channel server;

    private NettyReferenceProxy(EventLoopGroup loops, Channel server) {
        this.loops = loops;
        this.server = server;
    }

    public static void main(String[] args) throws InterruptedException {
        NettyReferenceProxy proxy = start(args[0], args[1], Integer.parseInt(args[2]));
        System.out.println(LISTENING + proxy.port());
        proxy.server.closeFuture().sync();
    }

    /** Listens on a free loopback port, relaying to {@code host:port} in the given mode. */
    public static NettyReferenceProxy start(String mode, String host, int port) throws InterruptedException {
        Transport transport = Transport.best();
        EventLoopGroup loops = transport.loops(Runtime.getRuntime().availableProcessors());
        Upstream upstream = new Upstream(transport, host, port);
        ChannelHandler perConnection = switch (mode.toLowerCase(Locale.ROOT)) {
            case HTTP -> new ChannelInitializer<>() {
                @Override
                protected void initChannel(Channel client) {
                    client.pipeline().addLast(new HttpServerCodec(), new HttpFront(upstream));
                }
            };
            case TCP -> new ChannelInitializer<>() {
                @Override
                protected void initChannel(Channel client) {
                    client.config().setAutoRead(false); // until its upstream connection is up
                    client.pipeline().addLast(new Splice(upstream));
                }
            };
            default -> throw new IllegalArgumentException("mode is http or tcp, not " + mode);
        };
        Channel server = new ServerBootstrap().group(loops).channel(transport.serverChannel())
                .childOption(ChannelOption.TCP_NODELAY, true).childHandler(perConnection)
                .bind("127.0.0.1", 0).sync().channel();
        return new NettyReferenceProxy(loops, server);
    }

    public int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    public void close() {
        server.close().syncUninterruptibly();
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** Native epoll where Netty has it (as the gateway runs), NIO elsewhere. */
    private record Transport(boolean epoll) {
        static Transport best() {
            return new Transport(Epoll.isAvailable());
        }

        EventLoopGroup loops(int n) {
            return new MultiThreadIoEventLoopGroup(n, epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        }

        Class<? extends ServerChannel> serverChannel() {
            return epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        }

        Class<? extends Channel> channel() {
            return epoll ? EpollSocketChannel.class : NioSocketChannel.class;
        }
    }

    /** Connections to the one upstream, opened on the caller's loop. */
    private record Upstream(Transport transport, String host, int port) {
        ChannelFuture connect(Channel from, ChannelHandler handler) {
            return new Bootstrap().group(from.eventLoop()).channel(transport.channel())
                    .option(ChannelOption.TCP_NODELAY, true).handler(handler).connect(host, port);
        }

        String authority() {
            return host + ":" + port;
        }
    }

    /** HTTP mode, client side: each request goes to an idle pooled connection of this loop, or a new one. */
    private static final class HttpFront extends ChannelInboundHandlerAdapter {
        /** Idle upstream connections by loop: a connection is only ever used on the loop that opened it. */
        private static final ThreadLocal<ArrayDeque<Channel>> IDLE = ThreadLocal.withInitial(ArrayDeque::new);

        private final Upstream upstream;
        private final List<Object> pending = new ArrayList<>();
        private Channel current;
        private boolean connecting;

        HttpFront(Upstream upstream) {
            this.upstream = upstream;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest request) {
                request.headers().set(HttpHeaderNames.HOST, upstream.authority());
                current = idle();
                if (current == null) {
                    connect(ctx);
                } else {
                    current.pipeline().get(HttpBack.class).answerTo(ctx);
                }
            }
            if (connecting) {
                pending.add(msg);
            } else if (current != null) {
                current.write(msg);
            } else {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (current != null && !connecting) {
                current.flush();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            pending.forEach(ReferenceCountUtil::release);
            pending.clear();
        }

        private Channel idle() {
            ArrayDeque<Channel> idle = IDLE.get();
            Channel channel;
            while ((channel = idle.pollFirst()) != null) {
                if (channel.isActive()) {
                    return channel;
                }
            }
            return null;
        }

        private void connect(ChannelHandlerContext client) {
            connecting = true;
            HttpBack back = new HttpBack(client);
            upstream.connect(client.channel(), new ChannelInitializer<>() {
                @Override
                protected void initChannel(Channel channel) {
                    channel.pipeline().addLast(new HttpClientCodec(), back);
                }
            }).addListener((ChannelFuture connected) -> {
                connecting = false;
                if (!connected.isSuccess()) {
                    pending.forEach(ReferenceCountUtil::release);
                    pending.clear();
                    client.close();
                    return;
                }
                current = connected.channel();
                pending.forEach(current::write);
                pending.clear();
                current.flush();
            });
        }
    }

    /** HTTP mode, upstream side: the answer's objects go to the client; its end returns the connection to the pool. */
    private static final class HttpBack extends ChannelInboundHandlerAdapter {
        private ChannelHandlerContext client;

        HttpBack(ChannelHandlerContext client) {
            this.client = client;
        }

        /** A pooled connection's next request came from this client. */
        void answerTo(ChannelHandlerContext client) {
            this.client = client;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (client == null) {
                ReferenceCountUtil.release(msg);
                return;
            }
            client.write(msg);
            if (msg instanceof LastHttpContent) {
                client.flush();
                client = null;
                HttpFront.IDLE.get().addFirst(ctx.channel());
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (client != null) {
                client.flush();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (client != null) {
                client.close();
            }
        }
    }

    /** TCP mode, one direction: what arrives goes to the other channel as it is; either side closing closes both. */
    private static class Pipe extends ChannelInboundHandlerAdapter {
        /** Null until the other side is connected (the client side reads nothing before: auto-read is off). */
        Channel to;

        Pipe(Channel to) {
            this.to = to;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            to.write(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            to.flush();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (to != null) {
                to.close();
            }
        }
    }

    /** TCP mode, the client's side: connects its own upstream connection, then pipes both ways. */
    private static final class Splice extends Pipe {
        private final Upstream upstream;

        Splice(Upstream upstream) {
            super(null);
            this.upstream = upstream;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            Channel client = ctx.channel();
            upstream.connect(client, new Pipe(client)).addListener((ChannelFuture connected) -> {
                if (!connected.isSuccess()) {
                    client.close();
                    return;
                }
                to = connected.channel();
                client.config().setAutoRead(true);
            });
        }
    }
}
