package io.pdgateway.server.cli;

import java.util.List;

/**
 * Netty's fast path into the JDK for heap buffers, which Java 17 keeps closed unless the JVM opens it: byte arrays of
 * a kilobyte or more allocated without zeroing (a 200 KB body's buffer, Vert.x's copy of every such chunk). Netty takes
 * it when the JVM exports {@code jdk.internal.misc} to it ({@link #JVM_FLAGS}): the jar's manifest does for {@code
 * java -jar}, the container image passes the flag (a JVM started with {@code -cp} and without it keeps the zeroing:
 * Netty 4.2 has no switch of its own for this). In a profile of 200 KB requests, allocating and first filling each
 * body's buffer fell from 3.1 % of the gateway's CPU to 1.5 % (BENCHMARKS.md, issue 16). {@code java.nio} stays
 * closed: opened (with {@code io.netty.tryReflectionSetAccessible=true}), Netty would also free direct memory without a
 * Cleaner, outside the JVM's accounting, so {@code jvm_buffer_memory_used_bytes} and {@code -XX:MaxDirectMemorySize}
 * would no longer see it.
 */
public final class NettyAccess {
    /** What a JVM started with {@code -cp} (not {@code -jar}) needs on its command line for the same. */
    public static final List<String> JVM_FLAGS = List.of("--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED");

    private NettyAccess() {}

    /** Whether this JVM opens it to unnamed modules such as the jar's classes (and so to Netty). */
    public static boolean opened() {
        return Object.class.getModule().isExported("jdk.internal.misc", NettyAccess.class.getModule());
    }

    /** The start-up log's line: whether it is open, and if not, what would open it. */
    static String describe() {
        return opened() ? "buffers: Netty's JDK fast path open (heap arrays without zeroing)"
                : "buffers: Netty's JDK fast path closed (start the JVM with " + String.join(" ", JVM_FLAGS)
                        + ", as java -jar and the image do)";
    }
}
