"""Write dataset.toml and every c2rust-lite sample.json (pending: no ground truth) from tools/c2rust/defs/.

Usage: python datasets/builtin/tools/c2rust/make_c2rust_lite.py [--only ID ...]

Cases, interface, package and category come from defs/<module>.py (one SAMPLE per module); difficulty comes
from the rule in ckit.py applied to the number of API calls and to the reach measured by measure_reach.py
(reach.json). Re-running resets the samples written to pending: run `repozero dataset build` afterwards.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

from repozero.datasets import (
    Argument,
    Case,
    DatasetInfo,
    Interface,
    Sample,
    Source,
    Target,
    TestProgram,
    write_dataset_info,
    write_sample,
)

TOOLS = Path(__file__).resolve().parent
sys.path.insert(0, str(TOOLS))

from ckit import DIFFICULTY_RULE, CSampleDef, difficulty  # noqa: E402

ROOT = TOOLS.parent.parent / "c2rust-lite"
REACH = TOOLS / "reach.json"
INFO = DatasetInfo(
    name="c2rust-lite",
    version="1",
    description=(
        "Built-in C2Rust samples: C and C++ libraries from Debian, a C/C++ test program per sample, a "
        "functional API spec, a dependency-free Rust gold port, a planted bug and inputs that reveal it"
    ),
)


def load_defs() -> list[CSampleDef]:
    """Every SAMPLE in defs/*.py, in id order."""
    found = []
    for path in sorted((TOOLS / "defs").glob("*.py")):
        spec = importlib.util.spec_from_file_location(f"c2rust_lite_defs.{path.stem}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        found.append(module.SAMPLE)
    return sorted(found, key=lambda d: d.id)


def build_sample(d: CSampleDef, reach: int) -> Sample:
    """The pending Sample record for one def."""
    cases = [
        Case(
            id=f"c{i:03d}",
            argv=list(cd.argv),
            stdin=None if cd.stdin is None else cd.stdin.encode("utf-8"),
            description=cd.desc,
        )
        for i, cd in enumerate(d.cases)
    ]
    args = [
        Argument(name=a.name, format=a.format, required=a.required, description=a.description)  # type: ignore[arg-type]
        for a in d.args
    ]
    interface = Interface(args=args, stdin=d.stdin, style="named", max_input_bytes=d.max_input_bytes)  # type: ignore[arg-type]
    return Sample(
        id=d.id,
        subset="c2rust",
        source=Source(language=d.language, package=d.package, requirements=list(d.requirements)),  # type: ignore[arg-type]
        test_program=TestProgram(path=d.program, language=d.language),  # type: ignore[arg-type]
        interface=interface,
        api_spec="api_spec.md",
        target=Target(language="rust", entry=[f"target/release/{d.stem}"]),
        cases=cases,
        difficulty=difficulty(len(d.api), reach),  # type: ignore[arg-type]
        difficulty_rule=DIFFICULTY_RULE,
        category=d.category,
        status="pending",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None, help="sample ids to write (default: all)")
    args = parser.parse_args(argv)
    reach = json.loads(REACH.read_text()) if REACH.is_file() else {}
    if not (ROOT / "dataset.toml").is_file():  # kept otherwise: its content_hash is the build's
        write_dataset_info(ROOT, INFO)
    for d in load_defs():
        if args.only and d.id not in args.only:
            continue
        if d.id not in reach:
            print(f"{d.id}: no reach measured yet (run measure_reach.py --sample {d.id}); labelled by calls")
        sample = build_sample(d, int(reach.get(d.id, {}).get("reach", 0)))
        write_sample(ROOT, sample)
        print(f"{d.id}: {len(sample.cases)} cases, {sample.difficulty}, {sample.category}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
