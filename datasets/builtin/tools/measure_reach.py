"""Measure each sample's reach (distinct package source lines executed over all its cases) into reach.json.

Usage: python datasets/builtin/tools/measure_reach.py [--sample ID ...]
The reach feeds the difficulty rule in casekit.py; make_py2js_lite.py reads reach.json.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
sys.path.insert(0, str(TOOLS))

from check_gold import DEFAULT_DATASET, contract_env, ensure_venv  # noqa: E402

from repozero.datasets import Sample, load_dataset  # noqa: E402

REACH = TOOLS / "reach.json"
RUNNER = TOOLS / "reach_runner.py"


def reach_of(sample: Sample, program_dir: Path) -> int:
    python = ensure_venv(sample.source.requirements)
    lines: set[str] = set()
    with tempfile.TemporaryDirectory(prefix="reach-") as tmp:
        work = Path(tmp) / "program"
        shutil.copytree(program_dir, work)
        env = contract_env([python.parent], Path(tmp))
        out = Path(tmp) / "lines.json"
        for case in sample.cases:
            cmd = [str(python), str(RUNNER), str(out), sample.test_program.path, *case.argv]
            subprocess.run(cmd, input=case.stdin or b"", cwd=work, env=env, capture_output=True, timeout=60)
            lines.update(json.loads(out.read_text()))
    return len(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", nargs="*", default=None)
    args = parser.parse_args(argv)
    dataset = load_dataset(DEFAULT_DATASET)
    table = json.loads(REACH.read_text()) if REACH.is_file() else {}
    for sample in dataset.samples:
        if args.sample and sample.id not in args.sample:
            continue
        table[sample.id] = {"reach": reach_of(sample, dataset.program_dir(sample.id))}
        print(f"{sample.id}: reach {table[sample.id]['reach']}")
    REACH.write_text(json.dumps(dict(sorted(table.items())), indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
