package io.pdgateway.epp;

import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.stub.StreamObserver;

/** The {@code envoy.service.ext_proc.v3.ExternalProcessor} service: one {@link PickerStream} per HTTP request. */
final class EndpointPicker extends ExternalProcessorGrpc.ExternalProcessorImplBase {
    private final PickerContext context;

    EndpointPicker(PickerContext context) {
        this.context = context;
    }

    @Override
    public StreamObserver<ProcessingRequest> process(StreamObserver<ProcessingResponse> responses) {
        return new PickerStream(context, responses);
    }
}
