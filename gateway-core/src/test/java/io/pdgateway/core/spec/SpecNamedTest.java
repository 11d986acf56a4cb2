package io.pdgateway.core.spec;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.config.BucketServeMode;
import io.pdgateway.core.config.PrefixTokenizerType;
import io.pdgateway.core.config.TrtScheduleStyle;
import io.pdgateway.core.routing.DecodePolicy;
import io.pdgateway.core.routing.PrefillPolicy;
import io.pdgateway.core.routing.Strategy;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A user's word finds the value spelled so, and only that one; the spelling rules of each kind of value hold. */
class SpecNamedTest {
    @Test
    void aStrategyOrMode_isFoundByItsExactSpelling_only() {
        assertThat(Strategy.named("least-request")).contains(Strategy.LEAST_REQUEST);
        assertThat(Strategy.named("Least-Request")).as("upstream matches strategy names exactly").isEmpty();
        assertThat(Strategy.named(null)).isEmpty();
        assertThat(TrtScheduleStyle.named("generation_first")).contains(TrtScheduleStyle.GENERATION_FIRST);
        assertThat(BucketServeMode.named("rps ")).isEmpty();
        assertThat(PrefixTokenizerType.named("remote")).contains(PrefixTokenizerType.REMOTE);
    }

    @Test
    void aPolicy_isFoundWhateverItsCaseAndSurroundingBlanks() {
        assertThat(PrefillPolicy.named(" Hybrid_Cache_Load ")).contains(PrefillPolicy.HYBRID_CACHE_LOAD);
        assertThat(DecodePolicy.named("TOKEN_LOAD")).contains(DecodePolicy.TOKEN_LOAD);
        assertThat(DecodePolicy.named("token load")).isEmpty();
        assertThat(PrefillPolicy.named(null)).isEmpty();
    }

    @Test
    void theNames_areListedInDeclarationOrder_andNoTwoValuesOfAKindShareOne() {
        assertThat(TrtScheduleStyle.specNames()).containsExactly("context_first", "generation_first");
        assertThat(PrefixTokenizerType.specNames()).containsExactly("character", "tiktoken", "huggingface", "remote");
        for (List<String> names : List.of(Strategy.specNames(), PrefillPolicy.specNames(), DecodePolicy.specNames(),
                BucketServeMode.specNames(), TrtScheduleStyle.specNames(), PrefixTokenizerType.specNames())) {
            assertThat(new HashSet<>(names)).as("%s", names).hasSameSizeAs(names);
        }
    }
}
