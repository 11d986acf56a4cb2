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
 * The Azure 2023 trace reader: arrival times relative to the first row, lengths as recorded (at least 1), the window
 * cut, and a clear error for a file that is not the trace.
 */
class AzureTraceReaderTest {
    private static final String HEAD = """
            TIMESTAMP,ContextTokens,GeneratedTokens
            2023-11-16 18:15:46.6805900,374,44
            2023-11-16 18:15:50.9951690,396,109
            2023-11-16 18:15:51.0000000,1200,0
            2023-11-16 18:16:46.6805900,20,5
            """;

    @TempDir
    Path dir;

    @Test
    void rows_becomeRequestsAtTheirOffsetFromTheFirstRow() throws IOException {
        List<LoadRequest> requests = replay(write(HEAD), Long.MAX_VALUE);

        assertThat(requests).extracting(LoadRequest::arrivalMillis).containsExactly(0L, 4314L, 4319L, 60000L);
        assertThat(requests).extracting(r -> r.prompt().tokens()).containsExactly(374, 396, 1200, 20);
        assertThat(requests).extracting(LoadRequest::outputTokens).containsExactly(44, 109, 1, 5); // 0 raised to 1
        assertThat(requests).allMatch(r -> r.sessionKey() == null);
    }

    @Test
    void window_dropsRowsAfterIt() throws IOException {
        assertThat(AzureTraceReader.read(write(HEAD), 5_000)).hasSize(3);
    }

    @Test
    void everyPrompt_hasItsOwnText() throws IOException {
        List<LoadRequest> requests = replay(write(HEAD), Long.MAX_VALUE);

        String first = requests.get(0).prompt().text();
        String second = requests.get(1).prompt().text();
        assertThat(first).hasSize(374 * PromptSynthesizer.CHARS_PER_TOKEN);
        assertThat(second.substring(0, 40)).isNotEqualTo(first.substring(0, 40));
    }

    @Test
    void fileWithoutTheHeader_isRejected() throws IOException {
        Path file = write("time,in,out\n1,2,3\n");

        assertThatThrownBy(() -> AzureTraceReader.read(file, Long.MAX_VALUE)).isInstanceOf(IOException.class)
                .hasMessageContaining("not an Azure trace");
    }

    @Test
    void badRow_isReportedWithItsLineNumber() throws IOException {
        Path file = write("TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.68,12,3\nyesterday,1,2\n");

        assertThatThrownBy(() -> AzureTraceReader.read(file, Long.MAX_VALUE)).isInstanceOf(IOException.class)
                .hasMessageContaining("line 3");
    }

    @Test
    void format_isDetectedFromTheFirstLine() throws IOException {
        assertThat(TraceFormat.detect(write(HEAD))).isEqualTo(TraceFormat.AZURE);
    }

    /** The rows as the load generator sends them: the reader, then prompt text from each row's hash ids. */
    private static List<LoadRequest> replay(Path file, long windowMillis) throws IOException {
        return LoadRequest.fromTrace(AzureTraceReader.read(file, windowMillis));
    }

    private Path write(String text) throws IOException {
        return Files.writeString(Files.createTempFile(dir, "azure", ".csv"), text);
    }
}
