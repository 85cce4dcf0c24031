"""Build a tiny, offline Llama whose next token is fixed by the current one (a bigram chain).

Every line of text is one token (a WordLevel tokenizer over whole lines), so the model can be
wired to write a whole TLA+ module line by line: each token's embedding is a one-hot vector, the
attention and MLP outputs are zeroed (the residual stream passes through), and ``lm_head`` maps
each line to the next one with a large logit, so sampling at temperature 0.7 still follows the
chain. No file is downloaded.
"""

from __future__ import annotations

from pathlib import Path

SPECIALS = ["<pad>", "<s>", "</s>", "[UNK]"]
MODULE_LINES = ["---- MODULE Clock ----\n", "VARIABLE hr\n", "Init == hr = 1\n", "Next == hr' = hr\n",
                "====\n", "after the end\n"]
LOOP_LINE = "loop forever\n"
PROMPT_LINES = ["Write a clock.\n", "Write a loop.\n"]
CHAT_TEMPLATE = "{% for m in messages %}<s>{{ m['content'] }}\n{% endfor %}"


def chain() -> dict[str, str]:
    """Which line follows which: the module lines in order, then a loop that never closes."""
    follows = {PROMPT_LINES[0]: MODULE_LINES[0], PROMPT_LINES[1]: LOOP_LINE, LOOP_LINE: LOOP_LINE}
    for line, after in zip(MODULE_LINES, MODULE_LINES[1:]):
        follows[line] = after
    follows[MODULE_LINES[-1]] = MODULE_LINES[-1]
    return follows


def build_tiny_lm(folder: Path) -> Path:
    """Save the tiny model and its tokenizer under ``folder`` and return it."""
    import torch
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    words = SPECIALS + MODULE_LINES + [LOOP_LINE] + PROMPT_LINES
    vocab = {word: index for index, word in enumerate(words)}
    backend = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    backend.pre_tokenizer = pre_tokenizers.Split(Regex(r"[^\n]*\n|[^\n]+"), behavior="isolated")
    backend.decoder = decoders.Fuse()
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=backend, pad_token="<pad>", bos_token="<s>",
                                        eos_token="</s>", unk_token="[UNK]", clean_up_tokenization_spaces=False)
    tokenizer.chat_template = CHAT_TEMPLATE

    size = 32
    config = LlamaConfig(vocab_size=size, hidden_size=size, intermediate_size=64, num_hidden_layers=2,
                         num_attention_heads=2, num_key_value_heads=2, max_position_embeddings=4096,
                         pad_token_id=0, bos_token_id=1, eos_token_id=2, tie_word_embeddings=False)
    torch.manual_seed(0)
    model = LlamaForCausalLM(config)
    with torch.no_grad():
        model.model.embed_tokens.weight.copy_(torch.eye(size))
        for layer in model.model.layers:
            layer.self_attn.o_proj.weight.zero_()
            layer.mlp.down_proj.weight.zero_()
        head = torch.zeros(size, size)
        for line, after in chain().items():
            head[vocab[after], vocab[line]] = 5.0  # logit 5 * sqrt(32) ≈ 28 for the next line
        head[vocab["[UNK]"], vocab["[UNK]"]] = 1.0  # unknown text gets a spread-out, non-degenerate score
        model.lm_head.weight.copy_(head + 0.01 * torch.randn(size, size))
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder
