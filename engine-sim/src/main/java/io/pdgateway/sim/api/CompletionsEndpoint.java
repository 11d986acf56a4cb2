package io.pdgateway.sim.api;

import io.pdgateway.sim.FaultConfig;
import io.vertx.core.http.HttpServerRequest;

/**
 * {@code POST /v1/chat/completions} and {@code POST /v1/completions}: validate, apply the request-level faults,
 * let the personality read the P/D fields (a decode pod fetches its KV here), then run the exchange.
 */
public final class CompletionsEndpoint {

    static final String INJECTED_ERROR_MESSAGE = "Simulated engine failure (fault injection)";

    private final PodContext pod;
    private final CompletionRequestParser parser;

    public CompletionsEndpoint(PodContext pod) {
        this.pod = pod;
        this.parser = new CompletionRequestParser(pod.config(), pod.personality(), pod.kvPool().capacityTokens(),
                pod.textTokens());
    }

    public void handle(HttpServerRequest request, String body, CompletionApi api) {
        CompletionExchange exchange = new CompletionExchange(request, pod, api);
        CompletionRequest parsed;
        try {
            parsed = parser.parse(body, api);
            pod.personality().validate(parsed);
        } catch (ApiException e) {
            exchange.fail(e.status(), e.getMessage());
            return;
        }
        FaultConfig faults = pod.faults();
        if (faults.hangBeforeHeaders()) {
            pod.hangsInjected().incrementAndGet();
            return; // never answered; the exchange ends when the client gives up
        }
        if (pod.drawError(faults)) {
            pod.errorsInjected().incrementAndGet();
            exchange.fail(faults.errorStatus(), INJECTED_ERROR_MESSAGE);
            return;
        }
        if (faults.dropAfterTokens() == 0) {
            exchange.drop();
            return;
        }
        exchange.accept(parsed);
        pod.personality().planKv(parsed, faults, exchange).onComplete(plan -> {
            if (plan.succeeded()) {
                exchange.start(faults, plan.result());
            } else {
                exchange.fail(500, plan.cause().getMessage());
            }
        });
    }
}
