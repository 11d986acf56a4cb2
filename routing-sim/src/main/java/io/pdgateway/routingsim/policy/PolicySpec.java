package io.pdgateway.routingsim.policy;

import java.util.Map;

/**
 * A registered policy: its name in reports and on the command line, the gateway environment it adds on top of the
 * cluster's (e.g. AIBRIX_PREFILL_SCORE_POLICY), the routing-strategy header its requests carry (null: the pods'
 * profile decides, which is pd), and how to build it.
 *
 * @param family "floor", "production" or "ceiling", for grouping in reports
 */
public record PolicySpec(String name, String family, String description, Map<String, String> environment,
        String strategyHeader, PolicyFactory factory) {

    public PolicySpec {
        environment = Map.copyOf(environment);
    }
}
