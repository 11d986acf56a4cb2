package io.pdgateway.server.routing;

import io.pdgateway.core.config.RoutingSettings;
import io.pdgateway.core.routing.PdCandidates;
import io.pdgateway.core.session.Admission;
import io.pdgateway.engine.EngineAdapter;
import io.pdgateway.engine.EngineAdapters;
import io.pdgateway.engine.EngineProtocolException;
import io.pdgateway.engine.TopLevelJson;
import io.pdgateway.engine.UnpairableBodyException;
import io.pdgateway.server.front.ApiError;

/**
 * A PD admission's check of the body against the model's engine, before any pod is chosen, for every front (the
 * OpenAI server and the Envoy endpoint picker) alike: the engine's adapter and what it read of the body; or, for a
 * valid body its prefill/decode hand-off cannot carry (a completions batch under vLLM or TensorRT-LLM), the admission
 * turned to the model's standard pods when it has one and they take PD requests (with prompt-length bucketing); or
 * the client's 400 (reference §1.1).
 *
 * @param admission the admission to route, {@link Admission#withoutPairs} when only a standard pod can serve the body
 * @param adapter the engine adapter of the PD legs, or null when no leg is split (not PD, unknown engine, whole body)
 * @param admittedBody what the adapter read of the body for its plan, or null
 * @param refusal the client's error, or null when the request goes on to routing
 */
public record EngineAdmission(Admission admission, EngineAdapter adapter, Object admittedBody, ApiError refusal) {

    /** Checks the body of an admitted request against its model's engine. */
    public static EngineAdmission check(Admission admission, EngineAdapters engines, TopLevelJson body,
            RoutingSettings routing) {
        EngineAdapter adapter = admission.strategy().isPd() ? engines.forEngine(admission.model().engine()) : null;
        if (adapter == null) {
            return new EngineAdmission(admission, null, null, null);
        }
        try {
            return new EngineAdmission(admission, adapter, adapter.admit(body), null);
        } catch (UnpairableBodyException e) {
            // Standard pods take PD requests with prompt-length bucketing only (spec, "Add Standard Inference Pods").
            return routing.promptLengthBucketing()
                    && !PdCandidates.of(admission.model(), admission.profile()).standard().isEmpty()
                    ? new EngineAdmission(admission.withoutPairs(e.getMessage()), null, null, null)
                    : refused(adapter, e);
        } catch (EngineProtocolException e) {
            return refused(adapter, e);
        }
    }

    public boolean refused() {
        return refusal != null;
    }

    private static EngineAdmission refused(EngineAdapter adapter, EngineProtocolException e) {
        return new EngineAdmission(null, adapter, null, ApiError.of(400, "request body cannot be routed to "
                + adapter.engine() + " prefill/decode pods: " + e.getMessage(), "invalid_request_body"));
    }
}
