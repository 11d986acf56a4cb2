package io.pdgateway.bench.streams;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The heap after a collection, as jcmd GC.heap_info prints it for each collector (JDK 17's text). */
class GatewayProbeTest {
    @Test
    void g1_theWholeHeapsLine() {
        String info = """
                 garbage-first heap   total 98304K, used 24089K [0x0000000687400000, 0x0000000800000000)
                  region size 4096K, 1 young (4096K), 0 survivors (0K)
                 Metaspace       used 78K, committed 320K, reserved 1114112K
                  class space    used 3K, committed 128K, reserved 1048576K
                """;
        assertThat(GatewayProbe.heapUsed(info)).isEqualTo(24089L * 1024);
    }

    @Test
    void parallelAndSerial_theYoungAndTheOldGeneration_notTheMetaspace() {
        String parallel = """
                 PSYoungGen      total 113152K, used 3891K [0x0000000782700000, 0x000000078a500000)
                  eden space 97280K, 4% used [0x0000000782700000,0x0000000782acccf0,0x0000000788600000)
                  from space 15872K, 0% used [0x0000000788600000,0x0000000788600000,0x0000000789580000)
                 ParOldGen       total 258048K, used 19983K [0x0000000687400000, 0x0000000697000000)
                  object space 258048K, 7% used [0x0000000687400000,0x0000000688783fd0,0x0000000697000000)
                 Metaspace       used 130K, committed 320K, reserved 1114112K
                """;
        assertThat(GatewayProbe.heapUsed(parallel)).isEqualTo((3891L + 19983) * 1024);
        String serial = """
                 def new generation   total 116224K, used 4134K [0x0000000687400000, 0x000000068f210000)
                  eden space 103360K,   4% used [0x0000000687400000, 0x00000006878099b0, 0x000000068d8f0000)
                 tenured generation   total 258048K, used 19983K [0x0000000704d50000, 0x0000000714950000)
                 Metaspace       used 131K, committed 320K, reserved 1114112K
                """;
        assertThat(GatewayProbe.heapUsed(serial)).isEqualTo((4134L + 19983) * 1024);
    }

    @Test
    void noGenerationLine_unknown() {
        assertThat(GatewayProbe.heapUsed(" ZHeap           used 8M, capacity 64M, max capacity 1024M\n")).isEqualTo(-1);
    }
}
