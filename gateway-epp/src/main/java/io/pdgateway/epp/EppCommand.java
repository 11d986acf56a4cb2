package io.pdgateway.epp;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.server.GatewayServer;
import io.pdgateway.server.cli.ServeCommand;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code epp}: {@code serve} plus the Envoy endpoint picker on its own gRPC port. The HTTP port keeps serving /metrics,
 * /healthz, /readyz (and the OpenAI API, for clients that bypass the proxy); both sides route through one session.
 */
@Command(name = "epp", mixinStandardHelpOptions = true,
        description = "Run the gateway as an Envoy endpoint picker (ext_proc, Gateway API Inference Extension protocol), "
                + "with the serve command's options and settings, plus the gRPC port.")
public final class EppCommand extends ServeCommand {
    private static final Logger LOG = LoggerFactory.getLogger(EppCommand.class);
    /** The port GIE's examples and Envoy Gateway give the endpoint picker. */
    static final int DEFAULT_EXT_PROC_PORT = 9002;

    @Option(names = "--ext-proc-port", defaultValue = "" + DEFAULT_EXT_PROC_PORT,
            description = "gRPC port of the ext_proc service and its health checks (default: ${DEFAULT-VALUE}).")
    int extProcPort;

    @Option(names = "--ext-proc-body-mode", defaultValue = "buffered",
            description = "The request_body_mode of Envoy's ext_proc filter, assumed when Envoy does not send it "
                    + "(Envoy 1.34+ does): buffered or full_duplex_streamed (default: ${DEFAULT-VALUE}).")
    String bodyMode;

    public static void main(String[] args) {
        int status = new CommandLine(new EppCommand()).execute(args);
        if (status != 0) {
            System.exit(status);
        }
    }

    @Override
    protected void validate() {
        BodyMode.parse(bodyMode);
        if (extProcPort < 0 || extProcPort > 65535) {
            throw new IllegalArgumentException("--ext-proc-port must be a port number, got " + extProcPort);
        }
    }

    @Override
    protected Future<Runnable> started(Vertx vertx, GatewayServer gateway, GatewaySettings settings) {
        EppServer picker = EppServer.start(gateway, host, extProcPort, BodyMode.parse(bodyMode));
        LOG.info("endpoint picker (ext_proc) listening on {}:{}", host, picker.port());
        return Future.succeededFuture(() -> picker.stop(Duration.ofSeconds(drainGraceSeconds)));
    }
}
