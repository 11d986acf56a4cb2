package io.pdgateway.epp;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.ListValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.core.v3.HeaderMap;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ProcessingMode;
import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpBody;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpHeaders;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpTrailers;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProtocolConfiguration;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Envoy's side of one ext_proc stream, message by message, as its ext_proc filter sends them: request headers (with
 * the processing mode on the first message, as Envoy 1.34+ does, and the subset hint in the metadata context), the body
 * whole or in chunks, then the response headers (with the served endpoint), body chunks and trailers, or a reset.
 * Each answer is awaited with a bound.
 */
final class EnvoyStream implements AutoCloseable {
    private static final long ANSWER_TIMEOUT_SECONDS = 15;

    private final BlockingQueue<ProcessingResponse> answers = new LinkedBlockingQueue<>();
    private final StreamObserver<ProcessingRequest> requests;
    private volatile Throwable error;
    private volatile boolean completed;
    private boolean first = true;
    private final ProcessingMode.BodySendMode requestMode;
    private final ProcessingMode.BodySendMode responseMode;

    EnvoyStream(ManagedChannel channel, ProcessingMode.BodySendMode requestMode,
            ProcessingMode.BodySendMode responseMode) {
        this.requestMode = requestMode;
        this.responseMode = responseMode;
        this.requests = ExternalProcessorGrpc.newStub(channel).process(new StreamObserver<>() {
            @Override
            public void onNext(ProcessingResponse value) {
                answers.add(value);
            }

            @Override
            public void onError(Throwable t) {
                error = t;
            }

            @Override
            public void onCompleted() {
                completed = true;
            }
        });
    }

    private ProcessingRequest.Builder message() {
        ProcessingRequest.Builder b = ProcessingRequest.newBuilder();
        if (first) {
            first = false;
            b.setProtocolConfig(ProtocolConfiguration.newBuilder().setRequestBodyMode(requestMode)
                    .setResponseBodyMode(responseMode));
        }
        return b;
    }

    private static HeaderMap headerMap(Map<String, String> headers) {
        HeaderMap.Builder map = HeaderMap.newBuilder();
        headers.forEach((k, v) -> map.addHeaders(HeaderValue.newBuilder().setKey(k)
                .setRawValue(ByteString.copyFromUtf8(v))));
        return map.build();
    }

    /** The request's headers: POST to {@code path}, plus {@code extra}; {@code subset} is the proxy's hint, or null. */
    void requestHeaders(String path, Map<String, String> extra, List<String> subset) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(":method", "POST");
        headers.put(":path", path);
        headers.put(":authority", "gateway.example");
        headers.put("content-type", "application/json");
        headers.putAll(extra);
        ProcessingRequest.Builder b = message().setRequestHeaders(HttpHeaders.newBuilder().setHeaders(headerMap(headers)));
        if (subset != null) {
            ListValue.Builder list = ListValue.newBuilder();
            subset.forEach(e -> list.addValues(Value.newBuilder().setStringValue(e)));
            b.setMetadataContext(Metadata.newBuilder().putFilterMetadata(EppProtocol.SUBSET_HINT_NAMESPACE,
                    Struct.newBuilder().putFields(EppProtocol.DESTINATION_ENDPOINT_SUBSET,
                            Value.newBuilder().setListValue(list).build()).build()));
        }
        requests.onNext(b.build());
    }

    void requestBody(byte[] chunk, boolean endOfStream) {
        requests.onNext(message().setRequestBody(HttpBody.newBuilder().setBody(ByteString.copyFrom(chunk))
                .setEndOfStream(endOfStream)).build());
    }

    /** The upstream's response headers, with the endpoint Envoy says served them ({@code envoy.lb} metadata). */
    void responseHeaders(int status, String servedEndpoint, boolean endOfStream) {
        ProcessingRequest.Builder b = message().setResponseHeaders(HttpHeaders.newBuilder()
                .setHeaders(headerMap(Map.of(":status", Integer.toString(status), "content-type", "text/event-stream")))
                .setEndOfStream(endOfStream));
        if (servedEndpoint != null) {
            b.setMetadataContext(Metadata.newBuilder().putFilterMetadata(EppProtocol.LB_NAMESPACE, Struct.newBuilder()
                    .putFields(EppProtocol.DESTINATION_ENDPOINT_SERVED,
                            Value.newBuilder().setStringValue(servedEndpoint).build()).build()));
        }
        requests.onNext(b.build());
    }

    void responseBody(String chunk, boolean endOfStream) {
        requests.onNext(message().setResponseBody(HttpBody.newBuilder()
                .setBody(ByteString.copyFrom(chunk, StandardCharsets.UTF_8)).setEndOfStream(endOfStream)).build());
    }

    void responseTrailers() {
        requests.onNext(message().setResponseTrailers(HttpTrailers.getDefaultInstance()).build());
    }

    /** Resets the stream, as Envoy does when the client goes away or the upstream request is torn down. */
    void reset() {
        requests.onError(Status.CANCELLED.withDescription("downstream reset").asRuntimeException());
    }

    /** The next answer, within the bound. */
    ProcessingResponse next() throws InterruptedException {
        ProcessingResponse answer = answers.poll(ANSWER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(answer).as("an ext_proc answer within " + ANSWER_TIMEOUT_SECONDS + " s (stream error: " + error
                + ")").isNotNull();
        return answer;
    }

    /** Half-closes Envoy's side, as Envoy does when the HTTP stream is over. */
    @Override
    public void close() {
        if (error == null && !completed) {
            try {
                requests.onCompleted();
            } catch (IllegalStateException ignored) {
                // already reset
            }
        }
    }
}
