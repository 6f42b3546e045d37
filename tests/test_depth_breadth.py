"""Depth against breadth, end to end on the loopback server: a sweep `ace_rounds = [0, 1, 2, 3] ×
ace_branches = [1, 2, 4]` (one sample of the loopback server's fixture dataset, one attempt,
`fake:flaky-fix:0.4`), `repozero report` over it, the chart rendered in headless Chromium."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from repozero.orchestrator.report.depth_breadth import parse_point

from .test_report_browser import WIDTH, _colour_counts, _rgb, _run_chromium, decode_png

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]  # 10 cells, up to 13 coder runs an episode

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"
SPEC = f"""
dataset = "{FIXTURE}"
samples = "fx-stats"
attempts = 1
seed = 5

[axes]
model = ["fake:flaky-fix:0.4"]
ace_rounds = [0, 1, 2, 3]
ace_branches = [1, 2, 4]

[infra]
"run.concurrency" = 4

[[exclude]]                 # no round to fork before: the same run as ace_branches = 1
ace_rounds = [0]
ace_branches = [2, 4]
"""


def _repozero(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "repozero", *args], capture_output=True, text=True, timeout=1500, cwd=cwd
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def test_a_sweep_of_rounds_and_branches_draws_depth_against_breadth(tmp_path: Path) -> None:
    (tmp_path / "sweep.toml").write_text(SPEC)
    _repozero("sweep", "sweep.toml", "--out", "sweep", "--json", cwd=tmp_path)
    _repozero("report", "sweep", "--out", "report", "--resamples", "200", cwd=tmp_path)
    report = json.loads((tmp_path / "report" / "report.json").read_text())
    table = next(t for t in report["tables"] if t["id"] == "depth_breadth")
    rows = {r["key"]: r["cells"] for r in table["rows"]}
    runs = list(zip(rows["db/kind"], rows["db/rounds"], map(parse_point, rows["db/point"]), strict=True))
    assert sorted((k, r) for k, r, _ in runs) == sorted(
        [("depth", r) for r in range(4)] + [(f"breadth ×{b}", r) for b in (2, 4) for r in (1, 2, 3)]
    )
    assert set(rows["db/clock"]) == {"CPU"}
    tokens = {(k, r): p[1] for k, r, p in runs if p is not None}
    cpu = {(k, r): p[2] for k, r, p in runs if p is not None}
    assert all(v > 0 for v in cpu.values()) and cpu[("depth", 0)] < cpu[("breadth ×4", 1)]
    assert len(tokens) == 10
    # compute grows with depth, and a tree of B branches per round spends more than a line of as many rounds
    # (every branch of a round codes and tests; the prefix is counted once)
    assert tokens[("depth", 0)] < tokens[("depth", 1)]
    for r in (1, 2, 3):
        assert (
            tokens[("breadth ×2", r)] > tokens[("depth", r)] or tokens[("depth", r)] == tokens[("depth", 0)]
        )
    for i, (kind, _, _) in enumerate(runs):  # each breadth run is paired with the depth run nearest in tokens
        assert (rows["db/nearest"][i] is None) == (kind == "depth")
        assert (rows["db/sign"][i] is None) == (kind == "depth")
    html = tmp_path / "report" / "report.html"
    dom = _run_chromium(tmp_path, "dom", "--dump-dom", html.as_uri())
    assert dom.returncode == 0, dom.stderr.decode(errors="replace")[-2000:]
    section = dom.stdout.decode().split('<section id="depth_breadth">', 1)[1].split("</section>", 1)[0]
    assert section.count("<svg") == 2 and "pass rate against tokens" in section
    assert "pass rate against sandbox CPU seconds per episode" in section  # read from the sandboxes' cgroups
    for name in ("depth", "breadth ×2", "breadth ×4"):
        assert f">{name}</text>" in section  # a legend line each
    assert (
        section.count("<circle") == 2 * 12
    )  # a point per run on each chart; both breadth lines start at depth's 0
    # the chart drawn: a screenshot of the section alone shows the series colours
    only = tmp_path / "only.html"
    only.write_text(
        html.read_text().replace(
            "<main>", "<main><style>section{display:none}#depth_breadth{display:block}</style>"
        )
    )
    shot = tmp_path / "depth_breadth.png"
    done = _run_chromium(tmp_path, "shot", f"--screenshot={shot}", only.as_uri())
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    width, _, pixels, bpp = decode_png(shot.read_bytes())
    colours = _colour_counts(pixels, bpp)
    assert width == WIDTH
    assert colours[_rgb("#3366cc")] > 200 and colours[_rgb("#dc7633")] > 200
