package io.pdgateway.server.cli;

import io.pdgateway.core.config.PrefixTokenizerType;
import io.pdgateway.server.kvevents.EngineTokenizeClient;
import io.pdgateway.server.routing.ModelTokenizers;
import io.pdgateway.server.routing.TokenizerCheck;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code check-tokenizer}: before trusting prefix routing on KV events to a model's tokenizer file, ask one of its
 * vLLM pods whether the gateway tokenizes as it does. A wrong file, a missing chat template or a missing BOS token
 * does not fail anywhere else: the gateway's blocks just never meet the engine's, and routing quietly falls back to
 * load. Exit 0 when every probe agrees, 1 when one differs, 2 when the check could not be made.
 */
@Command(name = "check-tokenizer", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Compare the gateway's tokens for a model (its tokenizer file, and chat template for chat) with "
                + "what one of its vLLM pods answers on /tokenize, for a completion, a chat and a chat with tools. "
                + "The files come from PD_GATEWAY_PREFIX_CACHE_TOKENIZER_FILES and _CHAT_TEMPLATES, as serve reads "
                + "them, unless given here. Exit 0: every probe agrees; 1: one differs; 2: no check was made.")
public final class CheckTokenizerCommand implements Callable<Integer> {
    private final Map<String, String> environment;

    @Spec
    CommandSpec spec;

    @Option(names = "--engine", required = true, paramLabel = "URL", description = "A vLLM pod of the model, e.g. "
            + "http://10.0.0.7:8000 (an SGLang pod answers the completion probe alone; TensorRT-LLM has no /tokenize).")
    URI engine;

    @Option(names = "--model", required = true, description = "The model's name, as its pods are labelled.")
    String model;

    @Option(names = "--tokenizer-file", paramLabel = "PATH", description = "The model's tokenizer.json (default: "
            + "its entry in PD_GATEWAY_PREFIX_CACHE_TOKENIZER_FILES).")
    Path tokenizerFile;

    @Option(names = "--chat-template", paramLabel = "PATH", description = "The model's tokenizer_config.json "
            + "(default: its entry in PD_GATEWAY_PREFIX_CACHE_CHAT_TEMPLATES).")
    Path chatTemplate;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "10", description = "Per /tokenize call "
            + "(default: ${DEFAULT-VALUE}).")
    long timeoutSeconds;

    public CheckTokenizerCommand() {
        this(System.getenv());
    }

    /** @param environment where the file settings are read, as serve reads them from the process's */
    CheckTokenizerCommand(Map<String, String> environment) {
        this.environment = environment;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        TokenizerCheck check;
        try {
            check = new TokenizerCheck(model, ModelTokenizers.fromEnv(env(), PrefixTokenizerType.HUGGINGFACE));
        } catch (IllegalStateException | IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1) // engines serve HTTP/1.1
                .connectTimeout(Duration.ofSeconds(timeoutSeconds)).build();
        boolean allAgree = true;
        out.printf(Locale.ROOT, "model %s against %s%n", model, tokenize());
        for (TokenizerCheck.Probe probe : check.probes()) {
            int[] engineIds;
            try {
                engineIds = ask(http, probe, check.askBody(probe));
            } catch (RefusedChat e) {
                out.printf(Locale.ROOT, "%-16s skipped: the engine's /tokenize takes no chat messages (SGLang's)%n",
                        probe.name());
                continue;
            } catch (IOException e) {
                err.printf(Locale.ROOT, "%s: no answer from %s: %s%n", probe.name(), tokenize(),
                        e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
                return 2;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return 2;
            }
            TokenizerCheck.Outcome outcome = check.compare(probe, engineIds);
            allAgree &= outcome.agrees();
            out.println(line(check, outcome));
        }
        if (!allAgree) {
            out.println("The gateway's prefix blocks for these requests cannot match the blocks this engine reports in "
                    + "its KV events. Check the tokenizer file's version against the model's, set "
                    + ModelTokenizers.CHAT_TEMPLATES_ENV + " for chat, or use "
                    + "AIBRIX_PREFIX_CACHE_TOKENIZER_TYPE=remote.");
        }
        return allAgree ? 0 : 1;
    }

    /** The model's own entries of the file settings (the other models' files are not read), then this command's. */
    private Map<String, String> env() {
        Map<String, String> env = ModelTokenizers.onlyModel(environment, model);
        if (tokenizerFile != null) {
            env.put(ModelTokenizers.FILES_ENV, model + "=" + tokenizerFile);
        }
        if (chatTemplate != null) {
            env.put(ModelTokenizers.CHAT_TEMPLATES_ENV, model + "=" + chatTemplate);
        }
        return env;
    }

    private URI tokenize() {
        return engine.resolve("/tokenize");
    }

    /** A 400 for a chat probe: an engine whose {@code /tokenize} renders no chat (SGLang's), not a failed check. */
    private static final class RefusedChat extends IOException {
        RefusedChat(String message) {
            super(message);
        }
    }

    private int[] ask(HttpClient http, TokenizerCheck.Probe probe, String body) throws IOException,
            InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(tokenize())
                .timeout(Duration.ofSeconds(timeoutSeconds)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 400 && probe.chat()) {
            throw new RefusedChat(EngineTokenizeClient.abbreviated(response.body()));
        }
        if (response.statusCode() != 200) {
            throw new IOException("HTTP " + response.statusCode() + ": "
                    + EngineTokenizeClient.abbreviated(response.body()));
        }
        return EngineTokenizeClient.tokens(response.body().getBytes(StandardCharsets.UTF_8));
    }

    private static String line(TokenizerCheck check, TokenizerCheck.Outcome o) {
        String name = String.format(Locale.ROOT, "%-16s", o.probe().name());
        if (o.agrees()) {
            return String.format(Locale.ROOT, "%s agrees: %d tokens, %d of %d blocks", name, o.engine().length,
                    o.matchingBlocks(), o.blocks());
        }
        int at = o.firstDifference();
        return String.format(Locale.ROOT, "%s DIFFERS at token %d of %d (engine: %d): gateway %s, engine %s; %d of %d "
                + "blocks match", name, at, o.gateway().length, o.engine().length, check.quotedAt(o.gateway(), at),
                check.quotedAt(o.engine(), at), o.matchingBlocks(), o.blocks());
    }
}
