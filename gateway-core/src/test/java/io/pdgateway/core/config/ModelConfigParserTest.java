package io.pdgateway.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.model.ModelConfig;
import io.pdgateway.core.model.Profile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The model.aibrix.ai/config annotation: the spec's examples parse; anything broken is rejected with a reason. */
class ModelConfigParserTest {

    @Test
    void specLockedExample_parses() {
        ModelConfigParser.Result result = ModelConfigParser.parse("""
                {
                  "lockedRoutingStrategy": "pd",
                  "defaultProfile": "default",
                  "profiles": {
                    "default": { "routingStrategy": "pd" }
                  }
                }""");
        assertThat(result.ok()).isTrue();
        ModelConfig config = result.config();
        assertThat(config.lockedRoutingStrategy()).isEqualTo("pd");
        assertThat(config.resolve(null).routingStrategy()).isEqualTo("pd");
    }

    @Test
    void standardPodExample_combinedAndRange() {
        ModelConfig config = ModelConfigParser.parse("""
                {"profiles":{"default":{"routingStrategy":"pd","routingConfig":{"combined":true,
                 "promptLenBucketMinLength":2048,"prefillScorePolicy":"token_load","decodeStreamIdleTimeout":30}}}}
                """).config();
        Profile profile = config.resolve("unknown-profile");
        assertThat(profile.name()).isEqualTo("default");
        assertThat(profile.routingConfig().combined()).isTrue();
        assertThat(profile.routingConfig().promptLenBucketMinLength()).isEqualTo(2048);
        assertThat(profile.routingConfig().promptLenBucketMaxLength()).isZero();
        assertThat(profile.routingConfig().prefillScorePolicy()).isEqualTo("token_load");
        assertThat(profile.routingConfig().number("decodeStreamIdleTimeout")).contains(30.0);
    }

    @Test
    void namedProfile_selectedByName_elseDefaultProfile() {
        ModelConfig config = ModelConfigParser.parse("""
                {"defaultProfile":"b","profiles":{"a":{"routingStrategy":"pd"},"b":{"routingStrategy":"random"}}}
                """).config();
        assertThat(config.resolve("a").routingStrategy()).isEqualTo("pd");
        assertThat(config.resolve("zzz").routingStrategy()).isEqualTo("random");
        assertThat(config.resolve(null).routingStrategy()).isEqualTo("random");
    }

    @ParameterizedTest
    @ValueSource(strings = {"{not json", "[]", "\"text\"", "{}", "{\"profiles\":{}}", "{\"profiles\":{\"a\":3}}",
        "{\"profiles\":{\"a\":{\"routingConfig\":\"x\"}}}",
        "{\"profiles\":{\"a\":{\"routingConfig\":{\"promptLenBucketMaxLength\":\"lots\"}}}}", "{} trailing"})
    void invalidAnnotation_rejectedWithReason(String annotation) {
        ModelConfigParser.Result result = ModelConfigParser.parse(annotation);
        assertThat(result.ok()).isFalse();
        assertThat(result.error()).isNotBlank();
    }

    @Test
    void anUnclosedAnnotation_isDescribedByPlace_notByTheParsersInternals() {
        ModelConfigParser.Result result =
                ModelConfigParser.parse("{\"profiles\": {\"default\": {\"routingStrategy\": \"pd\",");

        assertThat(result.ok()).isFalse();
        assertThat(result.error()).startsWith("invalid JSON: Unexpected end-of-input").contains("at line 1, column ")
                .doesNotContain("Source").doesNotContain("StreamReadFeature").doesNotContain("marker");
    }

    /**
     * A routing key one level too high, a setting the gateway does not enforce and a typo still parse (the upstream
     * ignores them too), each named in a warning; the spec's own shapes warn of nothing.
     */
    @Test
    void keysIgnoredWhereTheyStand_areNamedInWarnings() {
        ModelConfigParser.Result result = ModelConfigParser.parse("""
                {"defaultProfil":"b","profiles":{"default":{"routingStrategy":"pd","prefillScorePolicy":"token_load",
                 "requestsPerSecond":20}}}""");
        assertThat(result.ok()).isTrue();
        assertThat(result.config().resolve(null).routingConfig().prefillScorePolicy()).as("not applied").isNull();
        assertThat(result.warnings()).containsExactly(
                "unknown key defaultProfil is ignored",
                "profile \"default\": prefillScorePolicy is ignored here: it belongs inside \"routingConfig\"",
                "profile \"default\": requestsPerSecond is ignored: pd-gateway does not enforce it");
        assertThat(ModelConfigParser.parse("""
                {"lockedRoutingStrategy":"pd","defaultProfile":"default","profiles":{"default":{"routingStrategy":"pd",
                 "routingConfig":{"prefillScorePolicy":"token_load","anyOwnKey":1}}}}""").warnings()).isEmpty();
    }
}
