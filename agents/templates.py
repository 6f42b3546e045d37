"""Prompt templates: files in `prompts/`, compiled once, rendered strictly.

A placeholder is `{{ name }}`. Rendering with a missing variable, or with a variable the template does
not use, is an error: a typo in a template or a caller must fail loudly, not ship a prompt with a hole.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from repozero.kernel.errors import RepoZeroError

__all__ = ["PROMPTS_DIR", "Template", "TemplateError", "render", "template"]

PROMPTS_DIR = Path(__file__).parent / "prompts"
_PLACEHOLDER = re.compile(r"\{\{\s*(\w+)\s*\}\}")


class TemplateError(RepoZeroError, ValueError):
    """A template and its variables do not match."""


class Template:
    """A template split once into literal text and variable names."""

    def __init__(self, name: str, text: str) -> None:
        self.name = name
        pieces = _PLACEHOLDER.split(text)
        self._literals = pieces[0::2]
        self._names = pieces[1::2]
        self.variables = frozenset(self._names)

    def render(self, **values: object) -> str:
        missing = self.variables - values.keys()
        extra = values.keys() - self.variables
        if missing or extra:
            raise TemplateError(f"template {self.name}: missing {sorted(missing)}, unknown {sorted(extra)}")
        out = [self._literals[0]]
        for name, literal in zip(self._names, self._literals[1:], strict=True):
            out.append(str(values[name]))
            out.append(literal)
        return "".join(out)


@functools.cache
def template(name: str) -> Template:
    """The compiled template `prompts/<name>` (cached for the life of the process)."""
    return Template(name, (PROMPTS_DIR / name).read_text(encoding="utf-8"))


def render(name: str, **values: object) -> str:
    return template(name).render(**values)
