package io.pdgateway.server.front;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CorsPolicyTest {
    @Test
    void unsetOrBlank_noOriginAllowed() {
        for (String setting : new String[] {null, "", " , "}) {
            CorsPolicy policy = CorsPolicy.parse(setting);
            assertThat(policy.enabled()).as("'%s'", setting).isFalse();
            assertThat(policy.allows("https://chat.example.com")).isFalse();
        }
    }

    @Test
    void list_exactOriginsAllowed_schemeAndHostInAnyCase_othersNot() {
        CorsPolicy policy = CorsPolicy.parse(" https://Chat.Example.com , http://localhost:3000");

        assertThat(policy.enabled()).isTrue();
        assertThat(policy.allows("https://chat.example.com")).isTrue();
        assertThat(policy.allows("HTTPS://CHAT.EXAMPLE.COM")).isTrue();
        assertThat(policy.allows("http://localhost:3000")).isTrue();
        assertThat(policy.allows("http://chat.example.com")).as("another scheme").isFalse();
        assertThat(policy.allows("http://localhost:3001")).as("another port").isFalse();
        assertThat(policy.allows("https://chat.example.com.evil.test")).isFalse();
        assertThat(policy.allows("null")).as("an opaque origin (a file, a sandbox)").isFalse();
        assertThat(policy.allows(null)).isFalse();
    }

    @Test
    void star_everyOrigin() {
        CorsPolicy policy = CorsPolicy.parse("*");

        assertThat(policy.allows("https://anything.example")).isTrue();
        assertThat(policy.allows("null")).isTrue();
        assertThat(policy.allows(null)).as("no Origin: not a browser's cross-origin call").isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"https://chat.example.com/", "https://chat.example.com/app", "chat.example.com",
            "https://", "https://user@chat.example.com", "https://chat.example.com?x=1"})
    void notAnOrigin_refusedSayingHowToWriteOne(String entry) {
        assertThatThrownBy(() -> CorsPolicy.parse("http://localhost:3000," + entry))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PD_GATEWAY_CORS_ALLOWED_ORIGINS")
                .hasMessageContaining("'" + entry + "' is not an origin")
                .hasMessageContaining("scheme://host[:port]");
    }

    @Test
    void starBesideNames_refused() {
        assertThatThrownBy(() -> CorsPolicy.parse("*,https://chat.example.com"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'*' allows every origin");
    }
}
