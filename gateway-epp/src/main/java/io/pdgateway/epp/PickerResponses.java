package io.pdgateway.epp;

import com.google.protobuf.ByteString;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.config.core.v3.HeaderValueOption;
import io.envoyproxy.envoy.service.ext_proc.v3.BodyMutation;
import io.envoyproxy.envoy.service.ext_proc.v3.BodyResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.CommonResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.HeaderMutation;
import io.envoyproxy.envoy.service.ext_proc.v3.HeadersResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ImmediateResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.StreamedBodyResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.TrailersResponse;
import io.envoyproxy.envoy.type.v3.HttpStatus;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.spec.SpecHeaders;
import io.pdgateway.server.front.ApiError;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** The ext_proc answers the picker sends, built in one place. Pure and thread-safe. */
final class PickerResponses {
    private PickerResponses() {}

    /** Lets the request headers through unchanged. */
    static ProcessingResponse continueRequestHeaders() {
        return ProcessingResponse.newBuilder().setRequestHeaders(HeadersResponse.getDefaultInstance()).build();
    }

    static ProcessingResponse continueRequestBody() {
        return ProcessingResponse.newBuilder().setRequestBody(BodyResponse.getDefaultInstance()).build();
    }

    static ProcessingResponse continueResponseBody() {
        return ProcessingResponse.newBuilder().setResponseBody(BodyResponse.getDefaultInstance()).build();
    }

    static ProcessingResponse continueTrailers(boolean response) {
        ProcessingResponse.Builder b = ProcessingResponse.newBuilder();
        return (response ? b.setResponseTrailers(TrailersResponse.getDefaultInstance())
                : b.setRequestTrailers(TrailersResponse.getDefaultInstance())).build();
    }

    /** Headers to set (overwriting what the client sent under the same name), as a mutation. */
    static HeaderMutation set(Map<String, String> headers) {
        HeaderMutation.Builder mutation = HeaderMutation.newBuilder();
        headers.forEach((name, value) -> mutation.addSetHeaders(HeaderValueOption.newBuilder()
                .setHeader(HeaderValue.newBuilder().setKey(name).setRawValue(ByteString.copyFromUtf8(value)))
                .setAppendAction(HeaderValueOption.HeaderAppendAction.OVERWRITE_IF_EXISTS_OR_ADD)));
        return mutation.build();
    }

    /** The {@code envoy.lb} dynamic metadata naming the picked endpoint. */
    static Struct destinationMetadata(String endpoint) {
        Struct inner = Struct.newBuilder()
                .putFields(EppProtocol.DESTINATION_ENDPOINT, Value.newBuilder().setStringValue(endpoint).build()).build();
        return Struct.newBuilder()
                .putFields(EppProtocol.LB_NAMESPACE, Value.newBuilder().setStructValue(inner).build()).build();
    }

    /**
     * The pick, for a BUFFERED request body: one answer to the body message, whose header mutation still applies
     * (Envoy holds the headers until the buffered body is answered), with the rewritten body when there is one.
     */
    static ProcessingResponse bufferedPick(HeaderMutation headers, byte[] newBody, String endpoint) {
        CommonResponse.Builder common = CommonResponse.newBuilder().setHeaderMutation(headers).setClearRouteCache(true);
        if (newBody != null) {
            common.setBodyMutation(BodyMutation.newBuilder().setBody(ByteString.copyFrom(newBody)));
        }
        return ProcessingResponse.newBuilder().setRequestBody(BodyResponse.newBuilder().setResponse(common))
                .setDynamicMetadata(destinationMetadata(endpoint)).build();
    }

    /**
     * The pick, for a FULL_DUPLEX_STREAMED request body: first the (held back) headers answer with the destination,
     * then the whole body, original or rewritten, as one streamed chunk that ends the stream.
     */
    static ProcessingResponse[] streamedPick(HeaderMutation headers, byte[] body, String endpoint) {
        ProcessingResponse head = ProcessingResponse.newBuilder()
                .setRequestHeaders(HeadersResponse.newBuilder().setResponse(CommonResponse.newBuilder()
                        .setHeaderMutation(headers).setClearRouteCache(true)))
                .setDynamicMetadata(destinationMetadata(endpoint)).build();
        return new ProcessingResponse[] {head, streamedBody(body, true, false)};
    }

    /** A FULL_DUPLEX_STREAMED body chunk handed back as it is (request or response side). */
    static ProcessingResponse streamedBody(byte[] chunk, boolean endOfStream, boolean response) {
        BodyResponse body = BodyResponse.newBuilder().setResponse(CommonResponse.newBuilder()
                .setBodyMutation(BodyMutation.newBuilder().setStreamedResponse(StreamedBodyResponse.newBuilder()
                        .setBody(ByteString.copyFrom(chunk)).setEndOfStream(endOfStream)))).build();
        ProcessingResponse.Builder b = ProcessingResponse.newBuilder();
        return (response ? b.setResponseBody(body) : b.setRequestBody(body)).build();
    }

    /** The answer to the response headers: the served pods and the request id, as serve's own response says them. */
    static ProcessingResponse responseHeaders(HeaderMutation headers) {
        return ProcessingResponse.newBuilder().setResponseHeaders(HeadersResponse.newBuilder()
                .setResponse(CommonResponse.newBuilder().setHeaderMutation(headers))).build();
    }

    /** A local reply instead of the upstream's: the OpenAI-style error serve would answer, with its spec header. */
    static ProcessingResponse error(ApiError error, String requestId) {
        Map<String, String> headers = new java.util.LinkedHashMap<>();
        error.forEachHeader((name, value) -> headers.put(name.toLowerCase(Locale.ROOT), value));
        if (requestId != null) {
            headers.put(io.pdgateway.core.spec.SpecHeaders.REQUEST_ID, requestId);
        }
        return ProcessingResponse.newBuilder().setImmediateResponse(ImmediateResponse.newBuilder()
                .setStatus(HttpStatus.newBuilder().setCodeValue(error.status()))
                .setHeaders(set(headers))
                .setBody(ByteString.copyFrom(error.body().getBytes()))
                .setDetails(error.code() == null ? "pd-gateway" : error.code())).build();
    }

    /** serve's response headers, which the picker adds to the upstream's: the pods that served, the strategy, the id. */
    static Map<String, String> servedHeaders(RouteDecision decision, String requestId) {
        Map<String, String> set = new LinkedHashMap<>();
        set.put(SpecHeaders.TARGET_POD, decision.target().name());
        if (decision.isPd()) {
            set.put(SpecHeaders.PREFILL_TARGET_POD, decision.prefill().name());
        }
        set.put(SpecHeaders.ROUTING_STRATEGY, decision.strategy().specName());
        set.put(SpecHeaders.REQUEST_ID, requestId);
        return set;
    }
}
