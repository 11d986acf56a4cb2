package io.pdgateway.epp;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpHeaders;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodRole;
import io.pdgateway.core.session.Admission;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;

/** What the picker reads out of Envoy's ext_proc messages: header values, the path, the status, the subset hint. Pure. */
final class EnvoyMessages {
    private EnvoyMessages() {}

    static String value(HeaderValue header) {
        return header.getRawValue().isEmpty() ? header.getValue() : header.getRawValue().toStringUtf8();
    }

    static String stripQuery(String path) {
        if (path == null) {
            return "";
        }
        int query = path.indexOf('?');
        return query < 0 ? path : path.substring(0, query);
    }

    /** The response headers' {@code :status}; 0 when absent or not a number. */
    static int status(HttpHeaders headers) {
        for (HeaderValue header : headers.getHeaders().getHeadersList()) {
            if (":status".equals(header.getKey())) {
                return parseStatus(value(header));
            }
        }
        return 0;
    }

    static int parseStatus(String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The proxy's subset hint: ip:port strings, as a list or one comma-separated string; null when absent. */
    static Set<String> subsetHint(Struct namespace) {
        if (namespace == null || !namespace.containsFields(EppProtocol.DESTINATION_ENDPOINT_SUBSET)) {
            return null;
        }
        Value value = namespace.getFieldsOrThrow(EppProtocol.DESTINATION_ENDPOINT_SUBSET);
        Set<String> endpoints = new LinkedHashSet<>();
        if (value.hasListValue()) {
            for (Value entry : value.getListValue().getValuesList()) {
                addEndpoints(endpoints, entry.getStringValue());
            }
        } else {
            addEndpoints(endpoints, value.getStringValue());
        }
        return endpoints;
    }

    private static void addEndpoints(Set<String> endpoints, String list) {
        for (String endpoint : list.split(",")) {
            if (!endpoint.isBlank()) {
                endpoints.add(endpoint.trim());
            }
        }
    }

    static String served(Struct namespace) {
        if (namespace == null || !namespace.containsFields(EppProtocol.DESTINATION_ENDPOINT_SERVED)) {
            return null;
        }
        return namespace.getFieldsOrThrow(EppProtocol.DESTINATION_ENDPOINT_SERVED).getStringValue();
    }

    /**
     * The pods Envoy may not be sent to: with a subset hint, every decode or single pod of the model whose address is
     * not in it. Prefill pods are the picker's own business (Envoy never connects to them), so the hint leaves them be.
     */
    static Set<String> outsideSubset(Set<String> subset, Admission admission) {
        if (subset == null) {
            return Set.of();
        }
        Set<String> excluded = new HashSet<>();
        for (Pod pod : admission.model().pods()) {
            if (pod.role() != PodRole.PREFILL && !subset.contains(pod.address())) {
                excluded.add(pod.id());
            }
        }
        return excluded;
    }
}
