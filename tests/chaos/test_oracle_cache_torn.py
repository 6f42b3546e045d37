"""The Oracle's result cache cut at every offset of its last entry (a power cut mid-append): the entries
before the cut are served, the cut one is not, and the next entry written is read back (it once glued onto
the torn line and was lost with it)."""

from __future__ import annotations

from pathlib import Path

from repozero.oracle.records import Verdict
from repozero.oracle.verdict_cache import ResultCache

FP = "sha256:" + "ab" * 32


def _verdict(n: int) -> Verdict:
    return Verdict(id=f"c{n}", reason=None, stdout=f"out {n}\n".encode(), exit_code=0, repeats=3)


def test_a_cut_last_entry_is_skipped_and_the_next_one_kept(tmp_path: Path) -> None:
    root = tmp_path / "results"
    first = ResultCache(root)
    first.put(FP, "k1", _verdict(1))
    first.put(FP, "k2", _verdict(2))
    path = next(root.glob("*.jsonl"))
    whole = path.read_bytes()
    start = whole.index(b"\n") + 1  # where the second entry begins
    for cut in range(start + 1, len(whole), 7):  # every 7th byte of the second line, but its end
        path.write_bytes(whole[:cut])
        cache = ResultCache(root)
        assert cache.get(FP, "k1") == _verdict(1) and cache.get(FP, "k2") is None, cut
        cache.put(FP, "k3", _verdict(3))
        again = ResultCache(root)
        assert again.get(FP, "k1") == _verdict(1), cut
        assert again.get(FP, "k3") == _verdict(3), cut
        assert again.get(FP, "k2") is None, cut
