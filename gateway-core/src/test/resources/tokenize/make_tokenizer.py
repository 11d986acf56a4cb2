"""Makes tokenizer.json (a small byte-level BPE shaped like Llama 3's) and expected.json (what Hugging Face's own
tokenizers library makes of a set of texts with it), the fixtures of gateway-core's tokenize tests.

Run from this folder: pip install tokenizers==0.23.2 && python3 make_tokenizer.py
The corpus is this project's own README text (../../../../../README.md); the output is deterministic for a given
tokenizers version and corpus.
"""
import json
import pathlib

from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, processors, trainers

HERE = pathlib.Path(__file__).parent
# The pre-tokenizer split of Llama 3's tokenizer.json: contractions, letters, 1-3 digits, punctuation, newlines.
SPLIT = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
         r"|\s*[\r\n]+|\s+(?!\S)|\s+")
SPECIAL = ["<|begin_of_text|>", "<|end_of_text|>", "<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>"]
MERGES = 400

tok = Tokenizer(models.BPE(ignore_merges=True))
tok.pre_tokenizer = pre_tokenizers.Sequence([
    pre_tokenizers.Split(Regex(SPLIT), behavior="isolated", invert=False),
    pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
])
tok.decoder = decoders.ByteLevel()
trainer = trainers.BpeTrainer(vocab_size=256 + MERGES, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                              show_progress=False)
corpus = (HERE / "../../../../../README.md").read_text(encoding="utf-8").splitlines()
tok.train_from_iterator(corpus, trainer)
tok.add_special_tokens(SPECIAL)
# Llama 3's post-processor: the BOS token before a text when special tokens are added (a completion's prompt).
bos = SPECIAL[0]
tok.post_processor = processors.TemplateProcessing(single=f"{bos} $A", pair=f"{bos} $A {bos}:1 $B:1",
                                                   special_tokens=[(bos, tok.token_to_id(bos))])
tok.save(str(HERE / "tokenizer.json"))

texts = [
    "Hello world",
    "The gateway routes prefill and decode legs across pods.",
    "I'm sure it's 12345 tokens, isn't it?\n\nYes.\r\n",
    "  leading spaces and trailing   ",
    "naïve café — 日本語のテキスト 🙂",
    "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHi there!<|eot_id|>",
    "tabs\tand\u00a0non-breaking\u2003spaces",
    "",
]
expected = [{"text": t, "ids": tok.encode(t, add_special_tokens=False).ids} for t in texts]
(HERE / "expected.json").write_text(json.dumps(expected, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
