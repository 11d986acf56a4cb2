package io.pdgateway.server.cli;

import java.util.List;

/**
 * Netty's fast paths into the JDK, which Java 17 keeps closed unless the JVM opens them: heap buffers allocated
 * without zeroing (a 200 KB body's buffer, Vert.x's copy of every chunk a kilobyte or larger) and direct memory freed
 * without a Cleaner. Netty takes them when the JVM starts with {@link #JVM_FLAGS} and the system property
 * {@value #TRY_PROPERTY} is true. The jar's manifest opens them for {@code java -jar} and the container image passes
 * the flags; {@link #enable} sets the property, before any Netty class reads it, unless the operator set it. In a
 * profile of 200 KB requests, allocating and first filling each body's buffer fell from 3.1 % of the gateway's CPU to
 * 1.5 % (BENCHMARKS.md, issue 16).
 */
public final class NettyAccess {
    public static final String TRY_PROPERTY = "io.netty.tryReflectionSetAccessible";
    /** What a JVM started with {@code -cp} (not {@code -jar}) needs on its command line for the same. */
    public static final List<String> JVM_FLAGS = List.of("--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED");

    private NettyAccess() {}

    /** Asks Netty to use the fast paths the JVM opens; a process's first call, before anything loads Netty. */
    public static void enable() {
        if (System.getProperty(TRY_PROPERTY) == null) {
            System.setProperty(TRY_PROPERTY, "true");
        }
    }

    /** Whether this JVM opens both to unnamed modules such as the jar's classes and Netty is asked to use them. */
    public static boolean opened() {
        return jvmOpensThem() && Boolean.parseBoolean(System.getProperty(TRY_PROPERTY));
    }

    /** The start-up log's line: whether they are open, and if not, what would open them. */
    static String describe() {
        if (opened()) {
            return "buffers: Netty's JDK fast paths open (arrays without zeroing, direct memory without a Cleaner)";
        }
        return jvmOpensThem() ? "buffers: Netty's JDK fast paths off (-D" + TRY_PROPERTY + "=false)"
                : "buffers: Netty's JDK fast paths closed (start the JVM with " + String.join(" ", JVM_FLAGS)
                        + ", as java -jar and the image do)";
    }

    private static boolean jvmOpensThem() {
        Module base = Object.class.getModule();
        Module unnamed = NettyAccess.class.getModule();
        return base.isExported("jdk.internal.misc", unnamed) && base.isOpen("java.nio", unnamed);
    }
}
