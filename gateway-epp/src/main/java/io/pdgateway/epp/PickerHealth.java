package io.pdgateway.epp;

import io.grpc.Status;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.stub.StreamObserver;
import java.util.function.BooleanSupplier;

/**
 * The gRPC health checks the endpoint-picker protocol asks for: {@code liveness} answers SERVING while the process
 * answers at all; {@code readiness}, the ext_proc service and the overall "" service answer SERVING once discovery
 * read the pods and while the gateway is not draining (the same rule as /readyz). Other names fail with NOT_FOUND, as the health protocol says.
 */
final class PickerHealth extends HealthGrpc.HealthImplBase {
    private final BooleanSupplier ready;

    PickerHealth(BooleanSupplier ready) {
        this.ready = ready;
    }

    @Override
    public void check(HealthCheckRequest request, StreamObserver<HealthCheckResponse> response) {
        HealthCheckResponse.ServingStatus status = switch (request.getService()) {
            case EppProtocol.HEALTH_LIVENESS -> HealthCheckResponse.ServingStatus.SERVING;
            case "", EppProtocol.HEALTH_READINESS, EppProtocol.HEALTH_EXT_PROC -> ready.getAsBoolean()
                    ? HealthCheckResponse.ServingStatus.SERVING : HealthCheckResponse.ServingStatus.NOT_SERVING;
            default -> null;
        };
        if (status == null) {
            response.onError(Status.NOT_FOUND.withDescription("unknown service " + request.getService())
                    .asRuntimeException());
            return;
        }
        response.onNext(HealthCheckResponse.newBuilder().setStatus(status).build());
        response.onCompleted();
    }
}
