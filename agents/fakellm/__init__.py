"""A loopback model server with scripted policies, for demos, tests and benchmarks (no real model).

The server (`FakeServer`, `start_fake_server`) is re-exported lazily: it is built on aiohttp's web server,
whose import (~0.2 s) every CLI start would otherwise pay through the modules that only name the policies.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from repozero.agents.fakellm.chat import ChatMessage, ChatRequest, Header, Reply, ToolCall, ToolSpec
from repozero.agents.fakellm.config import DEFAULT_DATASET, FakeLLMConfig, fake_endpoint, fake_policy
from repozero.agents.fakellm.faults import FAULT_KINDS
from repozero.agents.fakellm.patch import PatchError, apply_patch
from repozero.agents.fakellm.policies import POLICY_NAMES, parse_policy
from repozero.agents.fakellm.tokenizer import decode, encode, render_completion, render_prompt

__all__ = [
    "DEFAULT_DATASET",
    "FAULT_KINDS",
    "POLICY_NAMES",
    "ChatMessage",
    "ChatRequest",
    "FakeLLMConfig",
    "FakeServer",
    "Header",
    "PatchError",
    "Reply",
    "ToolCall",
    "ToolSpec",
    "apply_patch",
    "decode",
    "encode",
    "fake_endpoint",
    "fake_policy",
    "parse_policy",
    "render_completion",
    "render_prompt",
    "start_fake_server",
]

_LAZY = {
    "FakeServer": "repozero.agents.fakellm.server",
    "start_fake_server": "repozero.agents.fakellm.server",
}

if TYPE_CHECKING:  # what type checkers see; at run time `__getattr__` imports the server on first use
    from repozero.agents.fakellm.server import FakeServer, start_fake_server


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
