package io.pdgateway.workload.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pdgateway.workload.LoadRequest;
import io.pdgateway.workload.prompt.PromptSynthesizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Mooncake reader's prefix synthesis: each 512-token block's text comes from its hash id, so lines that share
 * leading ids share exactly that prefix text and differ right after it; lengths hold for the gateway's cl100k
 * tokenizer and the simulator's 4 characters a token.
 */
class MooncakeTraceReaderTest {
    private static final int BLOCK_CHARS = TraceRequest.HASH_BLOCK_TOKENS * PromptSynthesizer.CHARS_PER_TOKEN;

    @TempDir
    Path dir;

    @Test
    void linesSharingLeadingHashIds_shareExactlyThatPrefixText() throws IOException {
        List<LoadRequest> requests = replay(write("""
                {"timestamp": 0, "input_length": 1300, "output_length": 50, "hash_ids": [7, 8, 9]}
                {"timestamp": 10, "input_length": 1400, "output_length": 60, "hash_ids": [7, 8, 11]}
                """), Long.MAX_VALUE);

        String first = requests.get(0).prompt().text();
        String second = requests.get(1).prompt().text();
        int shared = commonPrefixLength(first, second);
        // Blocks 7 and 8 are shared: 2 × 512 tokens × 4 characters. The third block (9 vs 11) differs within its
        // first few words (a 3-letter word drawn from 64 matches by chance 1/64 of the time).
        assertThat(first.substring(0, 2 * BLOCK_CHARS)).isEqualTo(second.substring(0, 2 * BLOCK_CHARS));
        assertThat(shared).isBetween(2 * BLOCK_CHARS, 2 * BLOCK_CHARS + 40);
    }

    @Test
    void promptLength_isTheInputLength_withThePartialLastBlockCutFromItsFullText() throws IOException {
        List<LoadRequest> requests = replay(write("""
                {"timestamp": 0, "input_length": 1300, "output_length": 50, "hash_ids": [7, 8, 9]}
                {"timestamp": 5, "input_length": 1536, "output_length": 50, "hash_ids": [7, 8, 9]}
                """), Long.MAX_VALUE);

        String partial = requests.get(0).prompt().text();
        String full = requests.get(1).prompt().text();
        assertThat(requests.get(0).prompt().tokens()).isEqualTo(1300);
        assertThat(partial).hasSize(1300 * PromptSynthesizer.CHARS_PER_TOKEN);
        assertThat(full).startsWith(partial);
    }

    @Test
    void fieldsAndWindow_areRead() throws IOException {
        List<LoadRequest> requests = replay(write("""
                {"timestamp": 0, "input_length": 10, "output_length": 0, "hash_ids": [1]}
                {"timestamp": 2500, "input_length": 20, "output_length": 7, "hash_ids": [2]}
                {"timestamp": 9000, "input_length": 30, "output_length": 8, "hash_ids": [3]}
                """), 5_000);

        assertThat(requests).extracting(LoadRequest::arrivalMillis).containsExactly(0L, 2500L);
        assertThat(requests).extracting(LoadRequest::outputTokens).containsExactly(1, 7);
    }

    @Test
    void tooFewHashIds_getAnUnsharedTail() throws IOException {
        LoadRequest request = replay(write(
                "{\"timestamp\": 0, \"input_length\": 600, \"output_length\": 5, \"hash_ids\": [4]}\n"),
                Long.MAX_VALUE).get(0);

        assertThat(request.prompt().tokens()).isEqualTo(600);
        assertThat(request.prompt().segments()).hasSize(2);
    }

    @Test
    void nonMooncakeLines_areRejected() throws IOException {
        Path file = write("{\"ts\": 1}\n");

        assertThatThrownBy(() -> MooncakeTraceReader.read(file, Long.MAX_VALUE)).isInstanceOf(IOException.class)
                .hasMessageContaining("not a Mooncake row");
        assertThat(TraceFormat.detect(file)).isEqualTo(TraceFormat.MOONCAKE);
    }

    /** The rows as the load generator sends them: the reader, then prompt text from each row's hash ids. */
    private static List<LoadRequest> replay(Path file, long windowMillis) throws IOException {
        return LoadRequest.fromTrace(MooncakeTraceReader.read(file, windowMillis));
    }

    private Path write(String text) throws IOException {
        return Files.writeString(Files.createTempFile(dir, "mooncake", ".jsonl"), text);
    }

    private static int commonPrefixLength(String a, String b) {
        int n = 0;
        while (n < a.length() && n < b.length() && a.charAt(n) == b.charAt(n)) {
            n++;
        }
        return n;
    }
}
