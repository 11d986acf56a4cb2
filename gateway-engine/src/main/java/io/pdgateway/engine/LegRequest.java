package io.pdgateway.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.core.model.Pod;

/**
 * Everything an adapter needs to plan the legs of one PD request. {@code body} is the client's parsed body:
 * adapters copy it, never change it.
 *
 * @param path the client's request path; both legs use it
 * @param defaultKvConnector AIBRIX_KV_CONNECTOR_TYPE, used when the prefill pod has no valid label
 */
public record LegRequest(String path, ObjectNode body, Pod prefill, Pod decode, String defaultKvConnector) {}
