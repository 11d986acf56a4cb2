package io.pdgateway.core.session;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.model.ClusterSnapshot;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import io.pdgateway.core.cache.BlockHasher;
import io.pdgateway.core.routing.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The routing session: admission (unknown model and strategy refused, profile knobs, what to measure), select and
 * charge in one step, release through the lease, reroute without the failed pod, a pod that leaves discovery leaving
 * nothing behind, per-profile TTLs in the janitor, a bad profile value reported, and the same decisions for the same
 * seed and clock.
 */
class RoutingSessionTest {
    private static final String PROFILE_TTL = "{\"profiles\":{\"default\":{\"routingStrategy\":\"pd\","
            + "\"routingConfig\":{\"tokenLoadTTLSeconds\":7200}},\"odd\":{\"routingStrategy\":\"pd\","
            + "\"routingConfig\":{\"decodeScorePolicy\":\"fastest\"}}}}";

    private final ManualClock clock = new ManualClock();
    private final List<String> warnings = new ArrayList<>();
    private final AtomicReference<ClusterSnapshot> view = new AtomicReference<>();

    private RoutingSession session(Map<String, String> env, List<Pod> pods) {
        view.set(ClusterSnapshot.of(pods));
        return RoutingSession.create(GatewaySettings.fromEnv(env).routing(), view::get, pod -> PodMetrics.ABSENT,
                clock, 1, warnings::add);
    }

    private static List<Pod> twoRolesets(String config) {
        return List.of(pod("p1").prefill("rs1").config(config).build(), pod("d1").decode("rs1").config(config).build(),
                pod("p2").prefill("rs2").config(config).build(), pod("d2").decode("rs2").config(config).build());
    }

    /** One token per character: enough to give prompts that share text shared blocks. */
    private static PromptFeatures features(String prompt) {
        int[] tokens = prompt.chars().toArray();
        return new PromptFeatures(tokens.length, BlockHasher.chain(BlockHasher.seed("m"), tokens, tokens.length,
                BlockHasher.DEFAULT_BLOCK_TOKENS), tokens.length + 20);
    }

    @Test
    void unknownModelOrHeaderStrategy_refused_profileKnobsAndNeedsResolved() {
        RoutingSession session = session(Map.of("AIBRIX_PROMPT_LENGTH_BUCKETING", "true"), twoRolesets(null));
        assertThat(session.admit("nope", null, null).refusal().reason()).isEqualTo(Admission.Reason.UNKNOWN_MODEL);
        assertThat(session.admit("m", "bogus", null).refusal().reason()).isEqualTo(Admission.Reason.UNKNOWN_STRATEGY);
        Admission pd = session.admit("m", "pd", null);
        assertThat(pd.admitted()).isTrue();
        assertThat(pd.needs()).as("bucketing counts tokens; prefix_cache hashes").isEqualTo(new PromptNeeds(true, true));
        assertThat(session.admit("m", "least-request", null).needs().blockHashes()).isFalse();
    }

    @Test
    void route_chargesInOneStep_leaseReleasesEverything() {
        RoutingSession session = session(Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_PREFILL_SCORE_POLICY", "token_load"),
                twoRolesets(null));
        Routed routed = session.route(session.admit("m", null, null), features("x".repeat(400)), "r1", null);
        assertThat(routed.decision().verdict()).isEqualTo(Verdict.PD_PAIR_SELECTED);
        assertThat(session.requests().outstanding()).isEqualTo(3); // prefill in flight, decode running and pending
        assertThat(session.tokens().outstandingTokens()).isPositive();
        routed.lease().prefillAnswered();
        assertThat(session.tokens().activeTokens(routed.decision().prefill().id())).isZero();
        routed.lease().release();
        routed.lease().release();
        assertThat(session.requests().outstanding()).isZero();
        assertThat(session.tokens().outstandingTokens()).isZero();
    }

    @Test
    void reroute_releasesTheFailedAttempt_andAvoidsItsPrefillPod() {
        RoutingSession session = session(Map.of("ROUTING_ALGORITHM", "pd"), twoRolesets(null));
        Routed first = session.route(session.admit("m", null, null), features("y".repeat(100)), "r1", "s");
        Routed second = session.reroute(first);
        assertThat(second.decision().prefill()).isNotEqualTo(first.decision().prefill());
        assertThat(session.requests().outstanding()).as("only the retry holds charges").isEqualTo(3);
        second.lease().release();
        assertThat(session.requests().outstanding()).isZero();
    }

    @Test
    void podLeavesDiscovery_nothingLeftBehind() {
        RoutingSession session = session(Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_PREFILL_SCORE_POLICY",
                "hybrid_cache_load", "AIBRIX_DECODE_SCORE_POLICY", "token_load"), twoRolesets(null));
        Admission admission = session.admit("m", null, null);
        List<Routed> held = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            held.add(session.route(admission, features("z" + i + "q".repeat(200)), "r" + i, null));
        }
        session.tick();
        List<Pod> remaining = List.of(pod("p1").prefill("rs1").build(), pod("d1").decode("rs1").build());
        view.set(ClusterSnapshot.of(remaining));
        session.tick();
        List<String> ids = remaining.stream().map(Pod::id).toList();
        assertThat(session.requests().podIds()).allMatch(ids::contains);
        assertThat(session.tokens().podIds()).allMatch(ids::contains);
        assertThat(session.caches().model("m").hasPod("default/p2")).as("p2's cache view").isFalse();
        assertThat(session.caches().model("m").hasPod("default/p1")).isTrue();
        held.forEach(r -> r.lease().release()); // releases of dropped pods land nowhere
        assertThat(session.requests().outstanding()).isZero();
        assertThat(session.tokens().outstandingTokens()).isZero();
    }

    @Test
    void profileTtl_keepsItsCharge_pastTheEnvironmentsTtl() {
        RoutingSession session = session(Map.of("AIBRIX_TOKEN_LOAD_TTL_SECONDS", "3600"), twoRolesets(PROFILE_TTL));
        Routed routed = session.route(session.admit("m", null, null), features("w".repeat(100)), "r", null);
        clock.advanceSeconds(3660);
        session.tick();
        assertThat(session.tokens().outstandingTokens()).as("the profile's 7200 s TTL holds").isPositive();
        clock.advanceSeconds(3600);
        session.tick();
        assertThat(session.tokens().outstandingTokens()).isZero();
        assertThat(warnings).anySatisfy(w -> assertThat(w).contains("force-released"));
        routed.lease().release();
    }

    /**
     * tokenLoadSessionTTLSeconds per profile: "long" remembers a session for 7,200 s, the environment for 1,800 s.
     * After an hour and a janitor pass, a longer prompt on the same key is charged only its growth under "long"
     * (request cost 3,500 + 100 new tokens) and the whole prompt under the environment's TTL (3,500 + 220).
     */
    @Test
    void profileSessionTtl_governsTheJanitorsExpiry_forThatProfilesKeys() {
        String config = "{\"profiles\":{\"default\":{\"routingStrategy\":\"pd\"},\"long\":{\"routingStrategy\":"
                + "\"pd\",\"routingConfig\":{\"tokenLoadSessionTTLSeconds\":7200}}}}";
        RoutingSession session = session(Map.of("AIBRIX_TOKEN_LOAD_SESSION_TTL_SECONDS", "1800"), twoRolesets(config));
        long[] charged = new long[2];
        String[] profiles = {"long", null};
        for (int i = 0; i < 2; i++) {
            Admission admission = session.admit("m", null, profiles[i]);
            session.route(admission, features("a".repeat(100)), "first" + i, "key-" + i).lease().release();
        }
        clock.advanceSeconds(3600);
        session.tick(); // the janitor runs: the environment's 1,800 s key is gone, the profile's 7,200 s key stays
        for (int i = 0; i < 2; i++) {
            Routed again = session.route(session.admit("m", null, profiles[i]), features("a".repeat(200)), "second" + i,
                    "key-" + i);
            charged[i] = session.tokens().activeTokens(again.decision().prefill().id());
            again.lease().release();
        }
        assertThat(charged[0]).as("profile 'long': only the growth").isEqualTo(3500 + 100);
        assertThat(charged[1]).as("environment TTL: the whole prompt again").isEqualTo(3500 + 220);
        assertThat(session.sessionCount()).isEqualTo(2);
    }

    @Test
    void unknownDecodePolicyInProfile_warnedOnce_defaultKept() {
        RoutingSession session = session(Map.of(), twoRolesets(PROFILE_TTL));
        for (int i = 0; i < 3; i++) {
            assertThat(session.admit("m", null, "odd").knobs().decodeScorePolicy().specName())
                    .isEqualTo("load_balancing");
        }
        assertThat(warnings).filteredOn(w -> w.contains("decodeScorePolicy=fastest")).hasSize(1);
    }

    @Test
    void sameSeedAndClock_sameDecisions() {
        List<String> first = decisions();
        List<String> second = decisions();
        assertThat(second).isEqualTo(first);
        assertThat(first).as("decisions spread over both rolesets").contains("p1+d1", "p2+d2");
    }

    private List<String> decisions() {
        RoutingSession session = session(Map.of("ROUTING_ALGORITHM", "pd"), twoRolesets(null));
        Admission admission = session.admit("m", null, null);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Routed routed = session.route(admission, features("v" + i + "r".repeat(50)), "r" + i, null);
            out.add(routed.decision().prefill().name() + "+" + routed.decision().target().name());
            if (i % 3 == 0) {
                routed.lease().release();
            }
        }
        return out;
    }
}
