"""Write dataset.toml and every c2rust-lite sample.json (pending: no ground truth) from tools/c2rust/defs/.

Usage: python datasets/builtin/tools/c2rust/make_c2rust_lite.py [--only ID ...] [--splits]

Cases, interface, package and category come from defs/<module>.py (one SAMPLE per module); difficulty comes
from the rule in ckit.py applied to the number of API calls and to the reach measured by measure_reach.py
(reach.json); the split from the library (TRAIN below; every other library is `test`). Re-running resets
the samples written to pending: run `repozero dataset build` afterwards. `--splits` only sets each
sample's split, keeping its ground truth. Either way dataset.toml gets the content hash of the samples as
written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from repozero.datasets import DatasetInfo, Interface, Sample, Source, Target, TestProgram

TOOLS = Path(__file__).resolve().parent
sys.path.insert(0, str(TOOLS))
sys.path.insert(0, str(TOOLS.parent))

from ckit import DIFFICULTY_RULE, CSampleDef, difficulty  # noqa: E402
from deftools import arguments, cases, write_info, write_samples, write_splits  # noqa: E402
from deftools import load_defs as _load  # noqa: E402

ROOT = TOOLS.parent.parent / "c2rust-lite"
REACH = TOOLS / "reach.json"
TRAIN = frozenset({"libcjson-dev"})
"""The libraries whose samples are `train` (4 of 12); the other 3 libraries' samples are `test`."""
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
    return _load(TOOLS / "defs", "c2rust_lite_defs")


def build_sample(d: CSampleDef, reach: int) -> Sample:
    """The pending Sample record for one def."""
    interface = Interface(args=arguments(d), stdin=d.stdin, style="named", max_input_bytes=d.max_input_bytes)  # type: ignore[arg-type]
    return Sample(
        id=d.id,
        subset="c2rust",
        source=Source(language=d.language, package=d.package, requirements=list(d.requirements)),  # type: ignore[arg-type]
        test_program=TestProgram(path=d.program, language=d.language),  # type: ignore[arg-type]
        interface=interface,
        api_spec="api_spec.md",
        target=Target(language="rust", entry=[f"target/release/{d.stem}"]),
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
