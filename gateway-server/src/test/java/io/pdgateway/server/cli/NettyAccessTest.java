package io.pdgateway.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** In a JVM of its own each time: whether Netty takes its fast paths is decided once, when its classes load. */
class NettyAccessTest {
    @Test
    void withTheFlags_nettyAllocatesWithoutZeroingAndFreesDirectMemoryWithoutACleaner() throws Exception {
        assertThat(probe(NettyAccess.JVM_FLAGS)).isEqualTo("opened=true noCleaner=true buffers: Netty's JDK fast paths "
                + "open (arrays without zeroing, direct memory without a Cleaner)");
    }

    @Test
    void withoutThem_nettyKeepsItsSlowPaths_andSaysSoWithoutFailing() throws Exception {
        assertThat(probe(List.of())).isEqualTo("opened=false noCleaner=false buffers: Netty's JDK fast paths closed "
                + "(start the JVM with --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED "
                + "--add-opens=java.base/java.nio=ALL-UNNAMED, as java -jar and the image do)");
    }

    @Test
    void anOperatorsOwnSetting_isKept() throws Exception {
        List<String> flags = new ArrayList<>(NettyAccess.JVM_FLAGS);
        flags.add("-D" + NettyAccess.TRY_PROPERTY + "=false");

        assertThat(probe(flags)).isEqualTo("opened=false noCleaner=false buffers: Netty's JDK fast paths off "
                + "(-Dio.netty.tryReflectionSetAccessible=false)");
    }

    private static String probe(List<String> flags) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(flags);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Probe.class.getName()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("probe JVM ended").isTrue();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(process.exitValue()).as(out).isZero();
        return out.lines().reduce((first, last) -> last).orElse("");
    }

    /** What a process of the gateway's does first, then what Netty decided. */
    static final class Probe {
        public static void main(String[] args) {
            NettyAccess.enable();
            Unpooled.directBuffer(16).release(); // loads Netty's platform probe, as the first buffer would
            System.out.println("opened=" + NettyAccess.opened() + " noCleaner="
                    + PlatformDependent.useDirectBufferNoCleaner() + " " + NettyAccess.describe());
        }
    }
}
