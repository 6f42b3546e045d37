"""Write every py2js-lite sample.json (pending: no ground truth) from the definitions in tools/defs/.

Usage: python datasets/builtin/tools/make_py2js_lite.py [--only ID ...] [--splits]

Cases, interface, pins and category come from defs/<module>.py (one SAMPLE per module); difficulty comes
from the rule in casekit.py applied to the number of API calls and to the reach measured by
measure_reach.py (tools/reach.json); the split from the library (TRAIN below; every other library is
`test`). Re-running resets samples to pending: run `repozero dataset build` afterwards to record ground
truth again. `--splits` only sets each sample's split, keeping its ground truth. Either way dataset.toml
gets the content hash of the samples as written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from repozero.datasets import DatasetInfo, Interface, Sample, Source, Target, TestProgram

TOOLS = Path(__file__).resolve().parent
sys.path.insert(0, str(TOOLS))

from casekit import DIFFICULTY_RULE, SampleDef, difficulty  # noqa: E402
from deftools import arguments, cases, write_info, write_samples, write_splits  # noqa: E402
from deftools import load_defs as _load  # noqa: E402

ROOT = TOOLS.parent / "py2js-lite"
REACH = TOOLS / "reach.json"
TRAIN = frozenset({"roman", "humanize", "more-itertools", "jsonpointer"})
"""The libraries whose samples are `train` (7 of 20); the other 8 libraries' samples are `test`."""
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
    return _load(TOOLS / "defs", "py2js_lite_defs")


def build_sample(d: SampleDef, reach: int) -> Sample:
    return Sample(
        id=d.id,
        subset="py2js",
        source=Source(language="python", package=d.requirements[0], requirements=list(d.requirements)),
        test_program=TestProgram(path=d.program, language="python"),
        interface=Interface(args=arguments(d), stdin=d.stdin, style="named"),  # type: ignore[arg-type]
        api_spec="api_spec.md",
        target=Target(language="javascript", entry=["node", d.entry]),
        cases=cases(d),
        difficulty=difficulty(len(d.api), reach),  # type: ignore[arg-type]
        difficulty_rule=DIFFICULTY_RULE,
        category=d.category,
        status="pending",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None, help="sample ids to write (default: all)")
    parser.add_argument(
        "--splits", action="store_true", help="only set each sample's split (ground truth kept)"
    )
    args = parser.parse_args(argv)
    if args.splits:
        write_splits(ROOT, TRAIN, args.only)
    else:
        write_samples(ROOT, load_defs(), build_sample, REACH, TRAIN, args.only)
    write_info(ROOT, INFO)
    return 0


if __name__ == "__main__":
    sys.exit(main())
