"""Write every py2js-lite sample.json (pending: no ground truth) from the definitions in tools/defs/.

Usage: python datasets/builtin/tools/make_py2js_lite.py [--only ID ...]

Cases, interface, pins and category come from defs/<module>.py (one SAMPLE per module); difficulty comes
from the rule in casekit.py applied to the number of API calls and to the reach measured by
measure_reach.py (tools/reach.json). Re-running resets samples to pending: run `repozero dataset build`
afterwards to record ground truth again.
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

from casekit import DIFFICULTY_RULE, SampleDef, difficulty  # noqa: E402

ROOT = TOOLS.parent / "py2js-lite"
REACH = TOOLS / "reach.json"
INFO = DatasetInfo(
    name="py2js-lite",
    version="1",
    description=(
        "Built-in Py2JS samples: real pinned PyPI packages, a Python test program per sample, a functional "
        "API spec, a JavaScript gold reference, a planted bug and inputs that reveal it"
    ),
)


def load_defs() -> list[SampleDef]:
    """Every SAMPLE in defs/*.py, in id order."""
    found = []
    for path in sorted((TOOLS / "defs").glob("*.py")):
        spec = importlib.util.spec_from_file_location(f"py2js_lite_defs.{path.stem}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        found.append(module.SAMPLE)
    return sorted(found, key=lambda d: d.id)


def build_sample(d: SampleDef, reach: int) -> Sample:
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
    return Sample(
        id=d.id,
        subset="py2js",
        source=Source(language="python", package=d.requirements[0], requirements=list(d.requirements)),
        test_program=TestProgram(path=d.program, language="python"),
        interface=Interface(args=args, stdin=d.stdin, style="named"),  # type: ignore[arg-type]
        api_spec="api_spec.md",
        target=Target(language="javascript", entry=["node", d.entry]),
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
