package io.pdgateway.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** A mistyped value of {@code bench overhead} is a usage error, as picocli words one: exit 2, the reason, no trace. */
class BenchOverheadUsageTest {

    private record Outcome(int status, String err) {
    }

    private static Outcome run(String... args) {
        StringWriter err = new StringWriter();
        int status = new CommandLine(new BenchCommand()).setErr(new PrintWriter(err, true)).execute(args);
        return new Outcome(status, err.toString());
    }

    @Test
    void anUnknownPdEngineIsAUsageErrorNamingTheEnginesItDrives() {
        Outcome outcome = run("overhead", "--pd", "vllm,vlm");

        assertThat(outcome.status()).isEqualTo(2);
        assertThat(outcome.err()).contains("--pd: PD mode drives vllm, sglang, trtllm, trtllm-gen, not vlm")
                .contains("Usage:").doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void aGatewayVariantWithoutANameIsAUsageError() {
        Outcome outcome = run("overhead", "--gateway-variant", "-Xmx1g");

        assertThat(outcome.status()).isEqualTo(2);
        assertThat(outcome.err()).contains("--gateway-variant:").contains("Usage:").doesNotContain("\tat ");
    }
}
