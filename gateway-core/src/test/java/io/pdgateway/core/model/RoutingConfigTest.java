package io.pdgateway.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Prompt-length ranges: inclusive at both ends, max 0 = unlimited, min > max never matches (upstream #20). */
class RoutingConfigTest {
    @ParameterizedTest(name = "[{0},{1}] covers {2} = {3}")
    @CsvSource({
        "1000, 2000, 1000, true", "1000, 2000, 2000, true", "1000, 2000, 900, false", "1000, 2000, 2100, false",
        "0, 0, 999999999, true", "2048, 0, 2048, true", "2048, 0, 2047, false", "3000, 2000, 2500, false",
        "-5, 10, 0, true",
    })
    void coversPromptLength(int min, int max, int length, boolean expected) {
        RoutingConfig config = new RoutingConfig(min, max, false, null, null, Map.of());
        assertThat(config.coversPromptLength(length)).isEqualTo(expected);
    }
}
