package io.pdgateway.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.util.internal.PlatformDependent;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** In a JVM of its own each time: whether Netty takes its fast path is decided once, when its classes load. */
class NettyAccessTest {
    @Test
    void withTheFlag_nettyAllocatesArraysWithoutZeroing_andDirectMemoryStaysInTheJvmsAccounting() throws Exception {
        assertThat(probe(NettyAccess.JVM_FLAGS)).isEqualTo("opened=true uninitializedArrays=true noCleaner=false "
                + "buffers: Netty's JDK fast path open (heap arrays without zeroing)");
    }

    @Test
    void withoutIt_nettyKeepsItsSlowPath_andSaysSoWithoutFailing() throws Exception {
        assertThat(probe(List.of())).isEqualTo("opened=false uninitializedArrays=false noCleaner=false buffers: "
                + "Netty's JDK fast path closed (start the JVM with "
                + "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED, as java -jar and the image do)");
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

    /** What Netty decided when its first buffer loaded it: its own flag, read by reflection. */
    static final class Probe {
        public static void main(String[] args) throws ReflectiveOperationException {
            Unpooled.directBuffer(16).release();
            Field arrays = PlatformDependent.class.getDeclaredField("HAS_ALLOCATE_UNINIT_ARRAY");
            arrays.setAccessible(true);
            System.out.println("opened=" + NettyAccess.opened() + " uninitializedArrays=" + arrays.get(null)
                    + " noCleaner=" + PlatformDependent.useDirectBufferNoCleaner() + " " + NettyAccess.describe());
        }
    }
}
