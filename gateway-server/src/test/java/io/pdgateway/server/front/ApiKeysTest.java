package io.pdgateway.server.front;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pdgateway.core.config.GatewaySettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Client API keys: none configured admits everyone; keys from the variable and the file (comments and blanks
 * skipped) are each accepted as "Bearer KEY", scheme in any case; anything else is refused; a setting that names no
 * key, or a file that cannot be read, stops start-up rather than leaving the gateway open.
 */
class ApiKeysTest {
    @TempDir
    Path dir;

    private static ApiKeys keys(String inline, Path file) {
        Map<String, String> env = new HashMap<>();
        if (inline != null) {
            env.put("PD_GATEWAY_API_KEYS", inline);
        }
        if (file != null) {
            env.put("PD_GATEWAY_API_KEYS_FILE", file.toString());
        }
        return ApiKeys.load(GatewaySettings.fromEnv(env));
    }

    @Test
    void noneConfigured_everyoneAdmitted() {
        ApiKeys keys = keys(null, null);
        assertThat(keys.required()).isFalse();
        assertThat(keys.admits(null)).isTrue();
        assertThat(keys.admits("Bearer whatever")).isTrue();
    }

    @Test
    void inlineAndFileKeys_eachAccepted_othersRefused() throws Exception {
        Path file = Files.writeString(dir.resolve("keys"), "# team A\nsk-file-1\n\n  sk-file-2  \n#sk-commented\n");
        ApiKeys keys = keys(" sk-inline-1 , ,sk-inline-2", file);
        assertThat(keys.required()).isTrue();
        for (String key : new String[] {"sk-inline-1", "sk-inline-2", "sk-file-1", "sk-file-2"}) {
            assertThat(keys.admits("Bearer " + key)).as(key).isTrue();
        }
        assertThat(keys.admits("bearer sk-file-1")).as("the scheme is case-insensitive").isTrue();
        assertThat(keys.admits("Bearer sk-commented")).isFalse();
        assertThat(keys.admits("Bearer sk-inline")).as("a prefix of a key").isFalse();
        assertThat(keys.admits("Basic sk-inline-1")).isFalse();
        assertThat(keys.admits("sk-inline-1")).as("no scheme").isFalse();
        assertThat(keys.admits(null)).isFalse();
        assertThat(keys.admits("Bearer ")).isFalse();
    }

    @Test
    void setButNoKey_stopsStartup() throws Exception {
        assertThatThrownBy(() -> keys(" , ", null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("name no key");
        Path onlyComments = Files.writeString(dir.resolve("empty"), "# nothing yet\n\n");
        assertThatThrownBy(() -> keys(null, onlyComments)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("name no key");
    }

    @Test
    void unreadableFile_stopsStartup() {
        assertThatThrownBy(() -> keys(null, dir.resolve("missing"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PD_GATEWAY_API_KEYS_FILE").hasMessageContaining("cannot be read");
    }
}
