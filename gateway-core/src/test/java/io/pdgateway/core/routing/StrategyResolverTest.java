package io.pdgateway.core.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.config.ModelConfigParser;
import io.pdgateway.core.model.ModelConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Strategy precedence: locked > header > profile > ROUTING_ALGORITHM (spec "Step 2", upstream #30). */
class StrategyResolverTest {
    private static final ModelConfig LOCKED = ModelConfigParser.parse(
            "{\"lockedRoutingStrategy\":\"pd\",\"profiles\":{\"default\":{\"routingStrategy\":\"random\"}}}").config();
    private static final ModelConfig PROFILES = ModelConfigParser.parse(
            "{\"profiles\":{\"default\":{\"routingStrategy\":\"pd\"},\"rr\":{\"routingStrategy\":\"least-request\"}}}")
            .config();

    @ParameterizedTest(name = "{0}")
    @CsvSource(nullValues = "null", value = {
        // case, config, header, profile, expected strategy, expected source
        "locked beats header,       locked,   random,        null, pd,            lockedRoutingStrategy",
        "header beats profile,      profiles, least-request, null, least-request, header",
        "header trimmed,            profiles, '  random ',   null, random,        header",
        "profile beats env,         profiles, null,          null, pd,            profile default",
        "named profile,             profiles, null,          rr,   least-request, profile rr",
        "no config uses env,        none,     null,          null, random,        ROUTING_ALGORITHM",
    })
    void precedence(String name, String config, String header, String profile, String strategy, String source) {
        ModelConfig cfg = switch (config) {
            case "locked" -> LOCKED;
            case "profiles" -> PROFILES;
            default -> null;
        };
        StrategyResolver.Resolution resolution = StrategyResolver.resolve(cfg, header, profile, Strategy.RANDOM);
        assertThat(resolution.error()).isNull();
        assertThat(resolution.strategy().specName()).isEqualTo(strategy);
        assertThat(resolution.source()).isEqualTo(source);
    }

    @ParameterizedTest
    @CsvSource({"bogus", "PD-ish"})
    void unknownHeader_error(String header) {
        StrategyResolver.Resolution resolution = StrategyResolver.resolve(PROFILES, header, null, Strategy.RANDOM);
        assertThat(resolution.strategy()).isNull();
        assertThat(resolution.error()).contains("incorrect routing strategy " + header);
    }

    @Test
    void longUnknownHeader_errorRepeatsItsBeginningOnly() {
        String header = "x".repeat(60) + "y".repeat(4000);
        StrategyResolver.Resolution resolution = StrategyResolver.resolve(PROFILES, header, null, Strategy.RANDOM);
        assertThat(resolution.error())
                .contains("incorrect routing strategy " + "x".repeat(60) + "yyyy... (4060 characters)").doesNotContain("y".repeat(5)).hasSizeLessThan(400);
    }
}
