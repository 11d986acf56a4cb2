package io.pdgateway.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pdgateway.engine.sglang.SglangAdapter;
import io.pdgateway.engine.trtllm.TrtRequestIds;
import io.pdgateway.engine.trtllm.TrtllmAdapter;
import io.pdgateway.engine.vllm.VllmAdapter;
import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A completions batch (a list of prompts) is one prompt per element; a single prompt, in any of its shapes, is one. vLLM
 * and TensorRT-LLM pairs refuse a batch at admission, SGLang's take it.
 */
class PromptBatchesTest {

    private static TopLevelJson body(String json) throws EngineProtocolException {
        return TopLevelJson.parse(json.getBytes(StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}|1",
        "{\"prompt\":\"one [\\\"text\\\"]\"}|1",
        "{\"prompt\":[\"only one\"]}|1",
        "{\"prompt\":[1,2,3,4]}|1",
        "{\"prompt\" :  [ [1,2],[3] ] }|2",
        "{\"prompt\":[\"a\",\"b\",\"c\"]}|3",
        "{\"prompt\":[\"a\",\"b\"],\"prompt\":\"last wins\"}|1",
        "{\"prompt\":[]}|1"})
    void count(String json, int prompts) throws Exception {
        assertThat(PromptBatches.count(body(json))).isEqualTo(prompts);
    }

    @ParameterizedTest
    @CsvSource({"vllm", "trtllm"})
    void onePromptHandOffs_refuseABatch_andTakeOnePrompt(String engine) throws Exception {
        EngineAdapter adapter = engine.equals("vllm") ? new VllmAdapter()
                : new TrtllmAdapter(false, new TrtRequestIds(0, InstantSource.system()));
        assertThatThrownBy(() -> adapter.admit(body("{\"model\":\"m\",\"prompt\":[\"a\",\"b\"]}")))
                .isInstanceOf(UnpairableBodyException.class)
                .hasMessageContaining("a batch of 2 prompts")
                .hasMessageContaining("send each prompt as a request of its own");
        assertThat(adapter.admit(body("{\"model\":\"m\",\"prompt\":[\"a\"]}"))).isNotNull();
        assertThat(adapter.admit(body("{\"model\":\"m\",\"prompt\":[[1,2,3]]}"))).isNotNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"[\"a\",\"b\"]", "[[1],[2],[3]]"})
    void sglang_takesABatch(String prompt) throws Exception {
        assertThat(new SglangAdapter(new SplittableRandom(1)).admit(body("{\"model\":\"m\",\"prompt\":" + prompt + "}"))).isNotNull();
    }
}
