"""The loopback server's byte tokenizer as a Hugging Face tokenizer folder, for trainers and token mode.

A trainer (TRL) and the token-in/token-out endpoint mode load a model's own tokenizer from a local path;
against the fake server that tokenizer must give the server's ids exactly. `save_tokenizer(dir)` writes
one: ids 0–255 are the UTF-8 bytes, 256–264 the specials, and its chat template renders a conversation
to the very ids `render_prompt` gives (tests check that they agree). Needs `tokenizers` and
`transformers` (the `[trl]` extra); they are imported only here, when called.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from repozero.agents.fakellm.tokenizer import BOS, END, SPECIALS, VOCAB_SIZE

__all__ = ["CHAT_TEMPLATE", "build_tokenizer", "save_tokenizer"]

# One line of Jinja per piece; joined without separators so the template emits no stray whitespace.
_TEMPLATE_PARTS = (
    "{{- '<|bos|>' -}}",
    "{%- if tools -%}{%- set ns = namespace(items=[]) -%}{%- for t in tools -%}",
    "{%- set f = t.function if t.function is defined else t -%}",
    "{%- set ns.items = ns.items + [{'name': f.name, 'description': f.description or '',"
    " 'parameters': f.parameters or {}}] -%}",
    "{%- endfor -%}{{- '<|tools|>' + (ns.items | tojson(sort_keys=true, separators=(',', ':')))"
    " + '<|end|>' -}}{%- endif -%}",
    "{%- for m in messages -%}",
    "{{- '<|' + ('system' if m.role == 'developer' else m.role) + '|>' -}}",
    "{%- set thought = m.reasoning or m.reasoning_content -%}",
    "{%- if thought -%}{{- '<think>' + thought + '</think>' -}}{%- endif -%}",
    "{%- if m.content is string -%}{{- m.content -}}",
    "{%- elif m.content -%}{{- m.content | selectattr('text', 'defined') | map(attribute='text')"
    " | join('\\n') -}}{%- endif -%}",
    "{%- for c in m.tool_calls or [] -%}{%- set f = c.function if c.function is defined else c -%}",
    "{{- '<|tool_call|>' + f.name + '<|sep|>' -}}",
    "{{- f.arguments if f.arguments is string else (f.arguments | tojson) -}}{%- endfor -%}",
    "{{- '<|end|>' -}}",
    "{%- endfor -%}",
    "{%- if add_generation_prompt -%}{{- '<|assistant|>' -}}{%- endif -%}",
)
CHAT_TEMPLATE = "".join(_TEMPLATE_PARTS)
"""`render_prompt` as a Jinja chat template (with `add_generation_prompt`, the trailing assistant marker)."""


def _byte_chars() -> list[str]:
    """GPT-2's byte-to-character table: the character a byte-level tokenizer spells byte b with."""
    printable = [
        *range(ord("!"), ord("~") + 1),
        *range(ord("¡"), ord("¬") + 1),
        *range(ord("®"), ord("ÿ") + 1),
    ]
    table: dict[int, str] = {b: chr(b) for b in printable}
    extra = 0
    for b in range(256):
        if b not in table:
            table[b] = chr(256 + extra)
            extra += 1
    return [table[b] for b in range(256)]


def build_tokenizer() -> Any:
    """A `tokenizers.Tokenizer` whose ids are the fake server's: one per byte, then the specials."""
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers

    vocab = {char: b for b, char in enumerate(_byte_chars())}
    tokenizer = Tokenizer(models.BPE(vocab=vocab, merges=[]))
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    tokenizer.decoder = decoders.ByteLevel()
    specials = [AddedToken(SPECIALS[tid], special=True, normalized=False) for tid in sorted(SPECIALS)]
    tokenizer.add_special_tokens(specials)
    if tokenizer.get_vocab_size() != VOCAB_SIZE:  # the specials must land on 256.. in order
        raise RuntimeError(f"fake tokenizer has {tokenizer.get_vocab_size()} ids, expected {VOCAB_SIZE}")
    return tokenizer


def save_tokenizer(directory: str | os.PathLike[str]) -> Path:
    """Write the fake server's tokenizer (with its chat template) to `directory`; returns the folder.

    `transformers.AutoTokenizer.from_pretrained(directory)` loads it offline. EOS (and padding) is
    `<|end|>`, the token that ends every finished completion.
    """
    from transformers import PreTrainedTokenizerFast

    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    wrapped = PreTrainedTokenizerFast(
        tokenizer_object=build_tokenizer(),
        bos_token=SPECIALS[BOS],
        eos_token=SPECIALS[END],
        pad_token=SPECIALS[END],
        chat_template=CHAT_TEMPLATE,
        model_max_length=1 << 20,
    )
    wrapped.save_pretrained(folder)
    return folder
