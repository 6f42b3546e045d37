"""Decoding the text files people hand us, so a wrong encoding is a clear exit 2 naming the byte, not a traceback.

Text formats (JSON, JSONL, TOML, Markdown) are read as UTF-8; a UTF-8 BOM is skipped and UTF-16 or UTF-32
with a BOM is decoded (what Windows editors and PowerShell's `>` write). Source files follow their
language's rules instead: Python's are UTF-8 or what a PEP 263 `coding:` line declares (never UTF-16:
python will not run it), C and C++ are UTF-8. A NUL byte is never text. Every failure is the caller's
`UsageError` subclass with the file, the byte offset (and line) and what was expected.

This module imports nothing of ours but the error tree: every subpackage may use it.
"""

from __future__ import annotations

import codecs
import io
import os
import tokenize
from pathlib import Path

from repozero.kernel.errors import UsageError

__all__ = ["decode_source", "decode_text", "read_source", "read_text", "utf8_problem"]

_BOMS = (  # UTF-32 first: its little-endian BOM starts with UTF-16's
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32"),
    (codecs.BOM_UTF8, "utf-8", "UTF-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"),
)
_TEXT = "UTF-8 text (a UTF-8 BOM, or UTF-16/UTF-32 with a BOM, is read too)"
_PYTHON = "UTF-8 Python source, or the encoding a PEP 263 '# -*- coding: NAME -*-' line declares"
_C = "UTF-8 source (a UTF-8 BOM is allowed)"


def decode_text(data: bytes, where: str | os.PathLike[str], *, error: type[UsageError] = UsageError) -> str:
    """The text of a JSON, TOML or Markdown file, BOM removed, or `error` naming the first bad byte."""
    bom, codec, label = _bom(data)
    if codec == "utf-8":
        return _decode(data, bom, "utf-8", where, _TEXT, error)
    return _decode(data, bom, codec, where, f"{label} text after its BOM", error)


def decode_source(
    data: bytes, where: str | os.PathLike[str], language: str, *, error: type[UsageError] = UsageError
) -> str:
    """A program's source as its compiler or interpreter would read it, or `error` naming the first bad byte."""
    bom, _, label = _bom(data)
    expected = _PYTHON if language == "python" else _C
    if label in ("UTF-16", "UTF-32"):
        raise error(f"{where}: {_at(data, 0)}: a {label} byte-order mark; {language} source cannot be {label}; expected {expected}")  # fmt: skip
    if language != "python":
        return _decode(data, bom, "utf-8", where, expected, error)
    try:
        codec, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:  # bad bytes in the first two lines: decoding below says which byte
        if "invalid or missing" not in str(exc.msg):
            raise error(f"{where}: its coding line: {exc.msg}; expected {expected}") from None
        codec = "utf-8"
    return _decode(data, bom, "utf-8" if codec == "utf-8-sig" else codec, where, expected, error)


def read_text(path: str | os.PathLike[str], *, error: type[UsageError] = UsageError) -> str:
    """`decode_text` of a file's bytes; an unreadable file is `error` too."""
    return decode_text(_read(path, error), path, error=error)


def read_source(path: str | os.PathLike[str], language: str, *, error: type[UsageError] = UsageError) -> str:
    """`decode_source` of a file's bytes; an unreadable file is `error` too."""
    return decode_source(_read(path, error), path, language, error=error)


def utf8_problem(data: bytes) -> str | None:
    """Where and why `data` is not NUL-free UTF-8 ("byte 9 (line 2): ..."), or None if it is.

    For formats we write ourselves (traces), called only once a decoder has already failed.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"{_at(data, exc.start)}: {_why(exc, data)}"
    return None if "\0" not in text else f"{_at(data, data.find(0))}: {_NUL}"


_NUL = "a NUL byte (0x00), which no text file holds"


def _read(path: str | os.PathLike[str], error: type[UsageError]) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from None


def _bom(data: bytes) -> tuple[int, str, str]:
    for bom, codec, label in _BOMS:
        if data.startswith(bom):
            return len(bom), codec, label
    return 0, "utf-8", ""


def _decode(
    data: bytes, bom: int, codec: str, where: str | os.PathLike[str], expected: str, error: type[UsageError]
) -> str:
    """Decode `data[bom:]`, stopping at the first bad byte or NUL; offsets count from the file's first byte."""
    body = data[bom:]
    nul = body.find(0) if codec == "utf-8" else -1  # found before decoding: BOM-less UTF-16 is NUL-first
    try:
        text = (body if nul < 0 else body[:nul]).decode(codec)
    except UnicodeDecodeError as exc:
        position = _at(data, bom + exc.start) if codec == "utf-8" else f"byte {bom + exc.start}"
        raise error(f"{where}: {position}: {_why(exc, body)}; expected {expected}") from None
    except LookupError:  # a codec python lacks; tokenize.detect_encoding rejects most such names first
        raise error(f"{where}: unknown encoding {codec!r}; expected {expected}") from None
    if nul >= 0:
        raise error(f"{where}: {_at(data, bom + nul)}: {_NUL} (binary, or UTF-16 without a BOM?); expected {expected}")  # fmt: skip
    if "\0" in text:
        index = text.index("\0")
        offset = bom + len(text[:index].encode(codec))
        raise error(f"{where}: {_at(data, offset, text.count(chr(10), 0, index) + 1)}: {_NUL}; expected {expected}")  # fmt: skip
    return text


def _at(data: bytes, offset: int, line: int | None = None) -> str:
    line = data.count(b"\n", 0, offset) + 1 if line is None else line
    return f"byte {offset} (line {line})"


def _why(exc: UnicodeDecodeError, body: bytes) -> str:
    """The decoder's reason in words a person can act on."""
    byte = body[exc.start]
    if exc.encoding not in ("utf-8", "utf8"):
        return f"invalid {exc.encoding.upper()}: {exc.reason}"
    if exc.reason == "unexpected end of data":
        return f"invalid UTF-8: a multi-byte character starting with byte 0x{byte:02x} is truncated"
    if exc.reason == "invalid continuation byte":
        return f"invalid UTF-8: the character that byte 0x{byte:02x} starts is cut short{_legacy_hint(body)}"
    if exc.reason == "invalid start byte":
        return f"invalid UTF-8: byte 0x{byte:02x} cannot start a character{_legacy_hint(body)}"
    return f"invalid UTF-8: {exc.reason}"


def _legacy_hint(body: bytes) -> str:
    try:
        body.decode("cp1252")
    except UnicodeDecodeError:
        return ""
    return " (it reads as Windows-1252/Latin-1: re-save it as UTF-8)"
