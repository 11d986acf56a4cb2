package io.pdgateway.server.routing;

import com.fasterxml.jackson.databind.JsonNode;
import io.pdgateway.core.cache.BlockHasher;
import io.pdgateway.core.config.PrefixTokenizerType;
import io.pdgateway.core.session.Admission;
import io.pdgateway.core.session.PromptFeatures;
import io.pdgateway.core.session.PromptNeeds;
import io.pdgateway.core.tokenize.ChatTemplate;
import io.pdgateway.core.tokenize.SpecialTokens;
import io.pdgateway.core.tokenize.Tokenizer;
import io.pdgateway.core.tokenize.TokenizerFormatException;
import io.pdgateway.server.front.OpenAiRequest;
import io.pdgateway.server.front.PromptUtf8;
import io.pdgateway.server.front.TokenIdArray;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * Measures what routing reads from a prompt: its length in tokens and its prefix-block hashes (the gateway's
 * {@link BlockHasher} chain over the prompt's tokens, in the prefix-cache model's block size), only as far as the
 * request's {@link PromptNeeds} ask. Long prompts cost milliseconds of CPU, so the caller moves those off the event
 * loop ({@link #expensive}).
 */
public final class PromptMeasurer {
    /**
     * Prompts longer than this many characters are tokenized on a worker thread: cl100k over ~32 KB of text takes
     * milliseconds, long enough to delay every other stream on the same event loop.
     */
    static final int INLINE_MAX_CHARS = 32 * 1024;
    /** Prompts of more token ids than this are read and hashed on a worker thread, like long text. */
    static final int INLINE_MAX_IDS = 8 * 1024;
    /** The character tokenizer's token: four bytes of UTF-8 (reference §7: upstream's 4-byte blocks). */
    static final int BYTES_PER_CHARACTER_TOKEN = 4;

    private final PrefixTokenizerType tokenizer;
    private final int blockTokens;
    private final ModelTokenizers models;
    /** Where a model without a file gets its tokens ({@code remote}), or null. */
    private final RemoteTokenizer remote;

    public PromptMeasurer(PrefixTokenizerType tokenizer, int blockTokens) {
        this(tokenizer, blockTokens, ModelTokenizers.NONE);
    }

    /** @param models each model's own tokenizer, for {@link PrefixTokenizerType#HUGGINGFACE} */
    public PromptMeasurer(PrefixTokenizerType tokenizer, int blockTokens, ModelTokenizers models) {
        this(tokenizer, blockTokens, models, null);
    }

    /** @param remote where a model without a file gets its tokens, for {@link PrefixTokenizerType#REMOTE}; or null */
    public PromptMeasurer(PrefixTokenizerType tokenizer, int blockTokens, ModelTokenizers models,
            RemoteTokenizer remote) {
        this.tokenizer = tokenizer;
        this.blockTokens = blockTokens;
        this.models = models;
        this.remote = tokenizer == PrefixTokenizerType.REMOTE ? remote : null;
    }

    public PromptFeatures measure(OpenAiRequest request, PromptNeeds needs) {
        int[] clientIds = engineTokens() && request.promptTokenIds() > 0 ? clientTokenIds(request) : null;
        if (clientIds != null) {
            return measure(request, needs, clientIds); // the engine computes the ids it is given, as they are
        }
        Tokenizer own = ownTokenizer(request);
        long[] hashes = null;
        int tokens = -1;
        if (needs.blockHashes()) {
            long seed = BlockHasher.seed(request.model());
            if (own != null || tokenizer == PrefixTokenizerType.TIKTOKEN) {
                int[] ids = own != null ? modelTokens(request, own) : PromptTokenizer.encode(request.promptText());
                hashes = BlockHasher.chain(seed, ids, ids.length, blockTokens);
                tokens = ids.length;
            } else {
                // The character tokenizer: the prompt's bytes, four to a token (a trailing partial token never
                // fills a block), hashed where they lie.
                PromptUtf8 utf8 = request.promptUtf8();
                hashes = BlockHasher.chainOfWords(seed, utf8.bytes(), utf8.length() / BYTES_PER_CHARACTER_TOKEN,
                        blockTokens);
            }
        }
        if (request.promptTokenIds() >= 0) {
            tokens = request.promptTokenIds();
        } else if (tokens < 0) {
            tokens = needs.tokenCount() ? PromptTokenizer.count(request.promptText())
                    : request.promptLength() / PromptFeatures.BYTES_PER_TOKEN_ESTIMATE;
        }
        return new PromptFeatures(tokens, hashes, request.raw().length / PromptFeatures.BYTES_PER_TOKEN_ESTIMATE);
    }

    /** The prompt's features from its tokens as its engine computed them. */
    PromptFeatures measure(OpenAiRequest request, PromptNeeds needs, int[] engineTokens) {
        long[] hashes = needs.blockHashes() ? BlockHasher.chain(BlockHasher.seed(request.model()), engineTokens,
                engineTokens.length, blockTokens) : null;
        return new PromptFeatures(engineTokens.length, hashes,
                request.raw().length / PromptFeatures.BYTES_PER_TOKEN_ESTIMATE);
    }

    /** The token ids routing hashes for the request with its model's own file, or null when it has none. */
    int[] modelTokenIds(OpenAiRequest request) {
        Tokenizer own = ownTokenizer(request);
        return own == null ? null : modelTokens(request, own);
    }

    /** The model's own tokenizer file, when the tokenizer type reads files and the model has one; else null. */
    private Tokenizer ownTokenizer(OpenAiRequest request) {
        return engineTokens() ? models.tokenizer(request.model()) : null;
    }

    /** Whether prompt blocks are meant to hash as the engines' own tokens (so that they match the engines' events). */
    private boolean engineTokens() {
        return tokenizer == PrefixTokenizerType.HUGGINGFACE || tokenizer == PrefixTokenizerType.REMOTE;
    }

    /** A completion's prompt given as one list of token ids; null for anything else (a batch of lists). */
    private static int[] clientTokenIds(OpenAiRequest request) {
        byte[] prompt = request.members().rawValue("prompt");
        return prompt == null ? null : TokenIdArray.read(prompt);
    }

    /**
     * The prompt as the model's engine tokenizes it: a chat request rendered with the model's chat template when it has
     * one (as vLLM renders it: its tools, kwargs and generation-prompt choice included) and tokenized without special
     * tokens (the template writes them); a completion's prompt with the tokenizer's special tokens (Llama's BOS).
     * Either way the request's own {@code add_special_tokens} decides, as it does in vLLM.
     */
    private int[] modelTokens(OpenAiRequest request, Tokenizer own) {
        JsonNode body = request.body();
        JsonNode messages = body.get("messages");
        boolean chat = messages != null && messages.isArray();
        ChatTemplate template = chat ? models.chatTemplate(request.model()) : null;
        String text = request.promptText();
        if (template != null) {
            try {
                text = template.renderRequest(body);
            } catch (TokenizerFormatException | IllegalArgumentException e) {
                // a template that cannot render this request: the contents still share prefixes with each other
                return own.encode(text);
            }
        }
        return SpecialTokens.added(body, chat) ? own.encodeAddingSpecialTokens(text) : own.encode(text);
    }

    /** True when measuring is worth moving off the event loop. */
    public static boolean expensive(OpenAiRequest request, PromptNeeds needs) {
        return (needs.tokenCount() || needs.blockHashes())
                && (request.promptLength() > INLINE_MAX_CHARS || request.promptTokenIds() > INLINE_MAX_IDS);
    }

    /**
     * The features of an admitted request's prompt: with {@code remote}, from its tokens as one of its model's engines
     * (or the operator's tokenizer service) computes them when they come in time; otherwise, or without them, as
     * {@link #measure(Vertx, OpenAiRequest, PromptNeeds)}. Completes on the caller's context.
     */
    public Future<PromptFeatures> measure(Vertx vertx, OpenAiRequest request, Admission admission) {
        PromptNeeds needs = admission.needs();
        if (remote == null || !(needs.blockHashes() || needs.tokenCount()) || request.promptTokenIds() >= 0
                || models.tokenizer(request.model()) != null) {
            return measure(vertx, request, needs);
        }
        return remote.tokens(request, admission.model()).compose(tokens -> tokens == null
                ? measure(vertx, request, needs) : Future.succeededFuture(measure(request, needs, tokens)));
    }

    /**
     * The prompt's features, measured on the caller's event loop when that is cheap and on a worker thread when it is
     * not ({@link #expensive}): a long prompt's tokenizing must not hold an event loop. Completes on the caller's
     * context.
     */
    public Future<PromptFeatures> measure(Vertx vertx, OpenAiRequest request, PromptNeeds needs) {
        if (!expensive(request, needs)) {
            return Future.succeededFuture(measure(request, needs));
        }
        return vertx.executeBlocking(() -> measure(request, needs), false);
    }
}
