"""Rebuild a generated built-in dataset (`py2js`, `c2rust`) from its committed answer files.

    python datasets/builtin/tools/make_generated.py py2js [--only LIB …] [--jobs N] [--check]
                                                        [--config FILE] [--set KEY=VALUE …]

Why a script and not hand-made samples: these datasets are made *only* by `repozero dataset generate`.
Every library has a folder `datasets/builtin/NAME/generation/LIB/` holding `library.toml` (its pin, split,
slot count, gold ids) and `answers/` — the sample writer's and case writer's answers in the replay-folder
format (`fake:replay:DIR`, docs/fake-llm.md). This script runs the real command once per library, from the
repository root so that provenance names the answer folder by its repository path:

    repozero dataset generate --source PIN --model fake:replay:datasets/builtin/NAME/generation/LIB/answers \
        --voters none --files N --api-calls 1..20 --min-kept 20 --split SPLIT --out BUILD/LIB --json

then puts every library's samples side by side in one dataset (the sample folders as generate wrote them,
byte for byte), adds the gold ports from `generation/LIB/gold/ID/`, and computes the content hash. Each
library's summary is kept in `generation/LIB/summary.json` (what was kept and dropped and why, for
docs/builtin-datasets.md). The dataset is written beside the old one and swapped in only when whole;
`--check` builds it in a scratch folder instead and says whether the hash matches the committed one (with
`--only`, whether every rebuilt sample's hash matches its committed sample's); `--table` prints the
per-library table of docs/builtin-datasets.md from the summaries.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
BUILTIN = REPO / "datasets" / "builtin"
_VOLATILE = ("out", "seconds")
"""Summary fields that differ between two identical builds (where it was written, how long it took)."""

DESCRIPTIONS = {
    "py2js": "Python -> JavaScript samples over pinned PyPI libraries, made by `repozero dataset generate` "
    "from committed answer files (generation/); train/test split by library",
    "c2rust": "C/C++ -> Rust samples over Debian libraries, made by `repozero dataset generate` "
    "from committed answer files (generation/); train/test split by library",
}


def libraries(name: str, only: list[str]) -> list[Path]:
    root = BUILTIN / name / "generation"
    found = sorted(p.parent for p in root.glob("*/library.toml"))
    if only:
        missing = sorted(set(only) - {p.name for p in found})
        if missing:
            sys.exit(f"make_generated: no library {', '.join(missing)} under {root}")
        found = [p for p in found if p.name in only]
    if not found:
        sys.exit(f"make_generated: no generation/*/library.toml under {root}")
    return found


def _command(lib: Path, out: Path, settings: list[str]) -> list[str]:
    meta = tomllib.loads((lib / "library.toml").read_text(encoding="utf-8"))
    answers = (lib / "answers").relative_to(REPO)
    source = (
        ["--source", meta["source"]] if "source" in meta else ["--debian-package", meta["debian_package"]]
    )
    if "language" in meta:
        source += ["--language", meta["language"]]
    return [
        sys.executable, "-m", "repozero", "dataset", "generate", *source,
        "--model", f"fake:replay:{answers}", "--voters", "none", "--files", str(meta["files"]),
        "--api-calls", meta.get("api_calls", "1..20"), "--cases", "60", "--min-kept", "20",
        "--split", meta["split"], "--seed", "0", "--out", str(out), "--display", "off", "--json", *settings,
    ]  # fmt: skip


def generate(lib: Path, build: Path, settings: list[str], save: bool = True) -> dict:
    """One library through the real command; its summary (volatile fields removed), saved beside it
    unless `save` is off (a check writes nothing in the repository)."""
    out = build / lib.name
    started = time.monotonic()
    done = subprocess.run(_command(lib, out, settings), cwd=REPO, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(
            f"make_generated: {lib.name}: dataset generate exited {done.returncode}\n{done.stderr[-4000:]}"
        )
    summary = json.loads(done.stdout)
    for key in _VOLATILE:
        summary.pop(key, None)
    if save:
        (lib / "summary.json").write_text(
            json.dumps(summary, indent=1, sort_keys=True) + "\n", encoding="utf-8"
        )
    print(f"{lib.name}: {summary['kept']} kept of {summary['files']} ({time.monotonic() - started:.0f} s)")
    return summary


def assemble(name: str, libs: list[Path], build: Path, dest: Path) -> str:
    """The generated samples of every library, their gold, one dataset.toml; the content hash."""
    from repozero.datasets import DatasetInfo, content_hash, load_dataset, write_dataset_info

    (dest / "samples").mkdir(parents=True)
    for lib in libs:
        meta = tomllib.loads((lib / "library.toml").read_text(encoding="utf-8"))
        for sample in sorted((build / lib.name / "samples").iterdir()):
            shutil.copytree(sample, dest / "samples" / sample.name)
        for gold_id in meta.get("gold", []):
            gold = lib / "gold" / gold_id
            if not (dest / "samples" / gold_id).is_dir():
                sys.exit(f"make_generated: {lib.name}: gold {gold_id} names no kept sample")
            shutil.copytree(gold, dest / "samples" / gold_id / "gold")
    info = DatasetInfo(name=name, version="1", description=DESCRIPTIONS[name])
    write_dataset_info(dest, info)
    digest = content_hash(load_dataset(dest))
    write_dataset_info(
        dest, DatasetInfo(name=name, version="1", description=DESCRIPTIONS[name], content_hash=digest)
    )
    return digest


def _machine_cpu_s() -> float:
    """CPU seconds the whole machine has spent (user, nice, system, irq, softirq over every core): the
    Oracle's runs happen in sandboxes a launcher starts, outside this process's children."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    busy = [int(fields[i]) for i in (0, 1, 2, 5, 6)]
    return sum(busy) / os.sysconf("SC_CLK_TCK")


def _swap_in(built: Path, target: Path) -> None:
    """Replace the dataset's samples and dataset.toml; `generation/` (the answers) stays where it is."""
    for part in ("samples", "dataset.toml"):
        old = target / part
        if old.is_dir():
            shutil.rmtree(old)
        elif old.exists():
            old.unlink()
        os.replace(built / part, old)


def _compare(name: str, libs: list[Path], dest: Path, digest: str, partial: bool) -> bool:
    """Whether the build equals the committed dataset: its hash, or (a partial build) every built sample's."""
    from repozero.datasets import load_dataset, sample_hash

    target = BUILTIN / name
    if not (target / "dataset.toml").is_file():
        print(f"no committed dataset at {target}")
        return False
    committed = load_dataset(target)
    if not partial:
        same = committed.info.content_hash == digest
        print(
            "matches the committed dataset.toml"
            if same
            else f"differs: committed {committed.info.content_hash}"
        )
        return same
    built = load_dataset(dest)
    pins = {_package(tomllib.loads((lib / "library.toml").read_text(encoding="utf-8"))) for lib in libs}
    wanted = {s.id for s in committed.samples if s.source.package in pins}
    differing = sorted(wanted ^ {s.id for s in built.samples}) + sorted(
        s.id
        for s in built.samples
        if s.id in wanted and sample_hash(built, s.id) != sample_hash(committed, s.id)
    )
    print(
        f"{len(built.samples)} samples rebuilt; "
        + (f"differing: {', '.join(differing)}" if differing else "all match")
    )
    return not differing


def _package(meta: dict) -> str:
    """The library a generation folder is about: a pinned PyPI source, or a Debian package."""
    return str(meta.get("source") or meta["debian_package"])


def table(name: str) -> str:
    """docs/builtin-datasets.md's table: per library, programs written, kept, and dropped by reason."""
    rows = ["| library | split | programs | kept | rewrites | programs dropped | cases proposed | kept | dropped by reason |",
            "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for lib in libraries(name, []):
        meta = tomllib.loads((lib / "library.toml").read_text(encoding="utf-8"))
        summary = json.loads((lib / "summary.json").read_text(encoding="utf-8"))
        rewrites = sum(len(p["rewrites"]) for p in summary["programs"])
        gone = ", ".join(f"{p['id']}: {p['reason']}" for p in summary["programs"] if not p["kept"]) or "—"
        cases = summary["cases"]
        reasons = ", ".join(
            f"{k.removeprefix('dropped:')} {v}" for k, v in cases.items() if k.startswith("dropped:")
        )
        rows.append(f"| {_package(meta)} | {meta['split']} | {summary['files']} | {summary['kept']} | {rewrites} | "
                    f"{gone} | {cases.get('proposed', 0)} | {cases.get('kept', 0)} | {reasons or '—'} |")  # fmt: skip
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("name", choices=sorted(DESCRIPTIONS))
    parser.add_argument(
        "--only", nargs="+", default=[], metavar="LIB", help="these libraries (a partial build)"
    )
    parser.add_argument("--jobs", type=int, default=2, help="libraries generated at once (default 2)")
    parser.add_argument(
        "--check", action="store_true", help="build in a scratch folder; compare with the committed"
    )
    parser.add_argument("--table", action="store_true", help="print the per-library table from the summaries")
    parser.add_argument("--out", type=Path, help="also copy the assembled dataset here (a new folder)")
    parser.add_argument("--config", help="passed to repozero (e.g. an empty oracle cache)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="passed to repozero")
    args = parser.parse_args(argv)
    if args.table:
        print(table(args.name))
        return 0
    settings = (["--config", args.config] if args.config else []) + [
        x for s in args.set for x in ("--set", s)
    ]
    libs = libraries(args.name, args.only)
    started, machine = time.monotonic(), _machine_cpu_s()
    with tempfile.TemporaryDirectory(prefix=f"make-{args.name}-") as tmp:
        build = Path(tmp) / "build"
        with ThreadPoolExecutor(max(1, args.jobs)) as pool:
            summaries = list(pool.map(lambda lib: generate(lib, build, settings, not args.check), libs))
        dest = Path(tmp) / args.name
        digest = assemble(args.name, libs, build, dest)
        same = _compare(args.name, libs, dest, digest, bool(args.only)) if args.check or args.only else True
        if args.out:
            shutil.copytree(dest, args.out)
        if not args.check and not args.only:
            _swap_in(dest, BUILTIN / args.name)
    kept = sum(s["kept"] for s in summaries)
    print(f"{args.name}: {kept} samples from {len(libs)} libraries in {time.monotonic() - started:.0f} s; "
          f"machine CPU {_machine_cpu_s() - machine:.0f} core-s (every process: sandboxes, the Oracle, and "
          "anything else running)")  # fmt: skip
    print(f"content_hash: {digest}")
    return 0 if same or not args.check else 1


if __name__ == "__main__":
    raise SystemExit(main())
