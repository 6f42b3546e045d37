"""The in-memory `patch -p1`, the byte-exact file writes and the str_replace edits the policies emit."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from repozero.agents.fakellm.agent_actions import write_command
from repozero.agents.fakellm.patch import PatchError, apply_patch
from repozero.agents.fakellm.script import replacements

TREE = {"a.txt": b"one\ntwo\nthree\nfour\nfive\nsix\n", "keep.txt": b"k\n", "old.txt": b"bye\n"}
DIFF = b"""diff -ruN a/a.txt b/a.txt
--- a/a.txt\t2024-01-01 00:00:00
+++ b/a.txt\t2024-01-01 00:00:00
@@ -3,3 +3,4 @@
 three
-four
+FOUR
+four and a half
 five
diff -ruN a/new/file.txt b/new/file.txt
--- a/new/file.txt\t1970-01-01 00:00:00
+++ b/new/file.txt\t2024-01-01 00:00:00
@@ -0,0 +1,2 @@
+hello
+world
\\ No newline at end of file
diff -ruN a/old.txt b/old.txt
--- a/old.txt\t2024-01-01 00:00:00
+++ /dev/null\t1970-01-01 00:00:00
@@ -1 +0,0 @@
-bye
"""


def test_apply_patch_modifies_creates_and_deletes() -> None:
    out = apply_patch(TREE, DIFF.replace(b"a/new/file.txt\t1970", b"/dev/null\t1970"))
    assert out == {
        "a.txt": b"one\ntwo\nthree\nFOUR\nfour and a half\nfive\nsix\n",
        "keep.txt": b"k\n",
        "new/file.txt": b"hello\nworld",
    }
    assert TREE["a.txt"].startswith(b"one")  # the input tree is untouched


def test_a_hunk_is_found_when_lines_moved() -> None:
    shifted = {"a.txt": b"zero\nzero\n" + TREE["a.txt"]}
    diff = DIFF.split(b"diff -ruN a/new")[0]
    assert (
        apply_patch(shifted, diff)["a.txt"]
        == b"zero\nzero\none\ntwo\nthree\nFOUR\nfour and a half\nfive\nsix\n"
    )


def test_no_newline_at_end_of_file_on_both_sides() -> None:
    tree = {"t.mjs": b"a\nb\nc"}
    diff = b"--- a/t.mjs\n+++ b/t.mjs\n@@ -2,2 +2,2 @@\n b\n-c\n\\ No newline at end of file\n+C\n\\ No newline at end of file\n"
    assert apply_patch(tree, diff) == {"t.mjs": b"a\nb\nC"}


@pytest.mark.parametrize(
    ("tree", "message"),
    [
        ({"a.txt": b"one\ntwo\nTHREE\nfour\nfive\n"}, "a.txt: hunk 1 (at line 3) does not apply"),
        ({}, "no such file"),
    ],
)
def test_a_patch_that_does_not_apply_says_where(tree: dict[str, bytes], message: str) -> None:
    with pytest.raises(PatchError, match=message.replace("(", r"\(").replace(")", r"\)")):
        apply_patch(tree, DIFF.split(b"diff -ruN a/new")[0])


CONTENTS = [
    b"plain\ntext\n",
    b"no trailing newline",
    b"fence\n```\ninside\n```\n",
    b"RZEOF\nthe default delimiter as a line\n",
    b"\xff\xfe not utf-8 \x00\n",
    b"",
    "unicode — ✓ $HOME `cmd` \\n '\"\n".encode(),
]


@pytest.mark.parametrize("content", CONTENTS)
def test_write_command_writes_the_bytes_exactly(tmp_path: Path, content: bytes) -> None:
    command = write_command("dir with space/sub/f.mjs", content)
    subprocess.run(["sh", "-c", command], cwd=tmp_path, check=True, timeout=10)
    assert (tmp_path / "dir with space" / "sub" / "f.mjs").read_bytes() == content


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("a\nb\nc\n", "a\nB\nc\n"),
        ("x\nx\nx\ny\n", "x\nx\nX\ny\n"),  # repeated lines need context to be unique
        ("a\nb\nc\nd\ne\n", "A\nb\nc\nd\nE\nf\n"),  # several edits, an append
        ("same\nsame\n", "new\nsame\nsame\n"),  # an insertion at the top
        ("a\nb", "a\nc"),
    ],
)
def test_replacements_turn_old_into_new_applied_in_order(old: str, new: str) -> None:
    edits = replacements(old, new)
    assert edits
    text = old
    for before, after in edits:
        assert text.count(before) == 1
        text = text.replace(before, after)
    assert text == new


def test_replacements_widen_to_the_whole_file_and_give_up_on_an_empty_one() -> None:
    assert replacements("x\nx\n", "x\n") == [("x\nx\n", "x\n")]
    assert replacements("", "x\n") is None  # nothing to anchor a str_replace on: the policy writes the file
