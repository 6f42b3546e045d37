"""`repozero.kernel.textio` decodes what people hand us, or names the byte; for Python it agrees with python."""

from __future__ import annotations

import codecs
import importlib.util
from pathlib import Path

import pytest

from repozero.kernel.errors import ConfigError, DatasetError, UsageError
from repozero.kernel.textio import decode_source, decode_text, read_source, read_text, utf8_problem

TEXT = 'name = "démo ✓ 日本"\nlines = 2\n'


@pytest.mark.parametrize(
    "data",
    [
        TEXT.encode(),
        codecs.BOM_UTF8 + TEXT.encode(),
        TEXT.encode("utf-16"),
        codecs.BOM_UTF16_BE + TEXT.encode("utf-16-be"),
        TEXT.encode("utf-32"),
        codecs.BOM_UTF32_BE + TEXT.encode("utf-32-be"),
    ],
    ids=["utf8", "utf8_bom", "utf16", "utf16_be", "utf32", "utf32_be"],
)
def test_unicode_with_a_bom_reads_as_the_text(data: bytes) -> None:
    assert decode_text(data, "f.toml") == TEXT


@pytest.mark.parametrize(
    ("data", "position", "words"),
    [
        (
            b'a = "d\xe9mo"\n',
            "byte 6 (line 1)",
            "invalid UTF-8: the character that byte 0xe9 starts is cut short",
        ),
        (b"a = 1\nb = \xff\n", "byte 10 (line 2)", "byte 0xff cannot start a character"),
        (b"a = 1\nb = 2\xe2\x9c", "byte 11 (line 2)", "character starting with byte 0xe2 is truncated"),
        (b"a = 1\nb = \xe2\x9c\n", "byte 10 (line 2)", "byte 0xe2 starts is cut short"),
        (b"a = 1\x00\n", "byte 5 (line 1)", "a NUL byte (0x00)"),
        ("a = 1\n".encode("utf-16-le"), "byte 1 (line 1)", "UTF-16 without a BOM?"),
        (codecs.BOM_UTF8 + b"a\n\xc3", "byte 5 (line 2)", "is truncated"),  # offsets count the BOM
        (codecs.BOM_UTF16_LE + "a\n\0".encode("utf-16-le"), "byte 6 (line 2)", "a NUL byte"),
        (codecs.BOM_UTF16_LE + b"a\x00\x00\xdc", "byte 4", "invalid UTF-16-LE"),  # a lone low surrogate
        (codecs.BOM_UTF16_LE + b"a\x00b", "byte 4", "invalid UTF-16-LE: truncated data"),
    ],
)
def test_bad_bytes_are_named_by_offset_and_line(data: bytes, position: str, words: str) -> None:
    with pytest.raises(UsageError) as caught:
        decode_text(data, "in/cases.jsonl")
    message = str(caught.value)
    assert message.startswith(f"in/cases.jsonl: {position}: "), message
    assert words in message and "; expected " in message


def test_a_latin1_file_gets_a_hint() -> None:
    with pytest.raises(UsageError, match="reads as Windows-1252/Latin-1: re-save it as UTF-8"):
        decode_text("café\n".encode("latin-1"), "f")


def test_the_callers_error_class_is_raised() -> None:
    with pytest.raises(ConfigError):
        decode_text(b"\xff", "c.toml", error=ConfigError)
    with pytest.raises(DatasetError):
        decode_source(b"\0", "t.py", "python", error=DatasetError)


PYTHON = [
    b'print("d\xc3\xa9mo")\n',
    codecs.BOM_UTF8 + b'print("d\xc3\xa9mo")\n',
    b'# -*- coding: latin-1 -*-\nprint("d\xe9mo")\n',
    b'#!/usr/bin/env python3\n# vim: set fileencoding=cp1252 :\nprint("\x80")\n',
    b'print("d\xe9mo")\n',
    b"print(1)\n\xe2\x9c",
    b"print(1)\x00\n",
    'print("démo")\n'.encode("utf-16"),
    'print("démo")\n'.encode("utf-32"),
    codecs.BOM_UTF8 + b"# coding: latin-1\nprint(1)\n",
    b"# coding: no-such-codec\nprint(1)\n",
    b"\n\n# coding: latin-1\nprint('\xe9')\n",  # a coding line on line 3 counts for nothing
]


@pytest.mark.parametrize("data", PYTHON)
def test_python_source_is_accepted_exactly_when_python_compiles_it(data: bytes) -> None:
    """Python's own compiler is the judge: BOMs, PEP 263 coding lines, NULs and UTF-16 alike."""
    try:
        compile(data, "t.py", "exec")
        python_reads = True
    except (SyntaxError, ValueError):
        python_reads = False
    try:
        text = decode_source(data, "t.py", "python")
    except UsageError as exc:
        assert not python_reads, exc
        assert str(exc).startswith("t.py: ") and "expected UTF-8 Python source" in str(exc)
        return
    assert python_reads
    assert text == importlib.util.decode_source(data)  # the text python's import system reads


def test_c_source_is_utf8_only() -> None:
    assert decode_source(codecs.BOM_UTF8 + b"int main(void){}\n", "t.c", "c") == "int main(void){}\n"
    with pytest.raises(UsageError, match=r"t\.c: byte 0 \(line 1\): a UTF-16 byte-order mark; c source"):
        decode_source("int x;\n".encode("utf-16"), "t.c", "c")
    with pytest.raises(UsageError, match=r"t\.c: byte 4 \(line 1\): .*expected UTF-8 source"):
        decode_source(b"int \xe9;\n", "t.c", "c")


def test_files_that_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=f"{tmp_path}: cannot read: Is a directory"):
        read_text(tmp_path)
    with pytest.raises(DatasetError, match="cannot read: No such file"):
        read_source(tmp_path / "missing.py", "python", error=DatasetError)
    (tmp_path / "ok.md").write_bytes(codecs.BOM_UTF8 + "# Spec ✓\n".encode())
    assert read_text(tmp_path / "ok.md") == "# Spec ✓\n"


def test_utf8_problem_for_our_own_formats() -> None:
    assert utf8_problem('{"a": "✓"}\n'.encode()) is None
    assert utf8_problem(b'{"a": 1}\n{"b": "\xe9"}\n') == (
        "byte 16 (line 2): invalid UTF-8: the character that byte 0xe9 starts is cut short"
        " (it reads as Windows-1252/Latin-1: re-save it as UTF-8)"
    )
    assert utf8_problem(b"ab\n\x00") == "byte 3 (line 2): a NUL byte (0x00), which no text file holds"
