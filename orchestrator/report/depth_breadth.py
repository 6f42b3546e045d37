"""Depth against breadth at equal compute: runs of a sweep `ace_rounds × ace_branches`, one point each.

Depth is a line of ACE rounds (`ace_branches` 1); breadth forks after every round into B continuations
and keeps the best by visible score (orchestrator/engine/branching.py). A run's point is its pass rate at
its mean spend per episode — tokens, and sandbox CPU seconds (every process of the coder's and the graders'
sandboxes, read from their cgroups; runs made where they could not be read fall back to the wall time of
the agents' commands and of grading, and say so) — where a branching episode's spend is its whole tree's,
the shared prefix counted once. Each breadth run is set against the
depth run nearest to it in tokens, with the paired comparison the report already makes (per-sample
difference, clustered bootstrap interval, exact sign test).
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from repozero.orchestrator.report.load import RunData
from repozero.orchestrator.report.model import Cell, Row, Table
from repozero.orchestrator.report.paired import paired_comparison
from repozero.orchestrator.report.samples import SampleAgg

__all__ = ["SANDBOX_TIMINGS", "depth_breadth_figs", "depth_breadth_table", "kind_of", "spend_point"]

SANDBOX_CPU = "sandbox_cpu"
"""The episode timing that is its sandboxes' CPU seconds (orchestrator/engine/observe.py `CpuMeter`)."""
SANDBOX_TIMINGS = ("sandbox", "grade")
"""The episode timings that are sandbox wall time: the agents' commands, and grading (the fallback)."""


def kind_of(run: RunData) -> str:
    """`depth` for a line, `breadth ×B` for a tree of B continuations per round."""
    b = run.manifest.ace_branches
    return "depth" if b <= 1 else f"breadth ×{b}"


def spend_point(run: RunData, samples: Sequence[SampleAgg]) -> tuple[float, float, float, str] | None:
    """(pass rate in %, mean tokens, mean sandbox seconds, "CPU" or "wall") per episode of `run`; None with
    no episode. CPU when every scored episode has its sandboxes' CPU, else wall time for all."""
    scored = [s for s in samples if s.n]
    if not scored or not run.scored:
        return None
    rate = 100 * statistics.fmean(s.c / s.n for s in scored)
    tokens = statistics.fmean(e.tokens for e in run.scored)
    if all(SANDBOX_CPU in e.timings for e in run.scored):
        return rate, tokens, statistics.fmean(e.timings[SANDBOX_CPU] for e in run.scored), "CPU"
    seconds = statistics.fmean(sum(e.timings.get(k, 0.0) for k in SANDBOX_TIMINGS) for e in run.scored)
    return rate, tokens, seconds, "wall"


def depth_breadth_table(
    runs: Sequence[RunData],
    labels: Sequence[str],
    samples: Sequence[Sequence[SampleAgg]],
    *,
    resamples: int,
    seed: int,
) -> Table | None:
    """One column per run; None unless the runs hold both a line and a tree (nothing to compare)."""
    kinds = [kind_of(r) for r in runs]
    if "depth" not in kinds or all(k == "depth" for k in kinds):
        return None
    points = [spend_point(r, s) for r, s in zip(runs, samples, strict=True)]
    depth = [i for i, k in enumerate(kinds) if k == "depth" and points[i] is not None]
    nearest: list[int | None] = []
    for i, p in enumerate(points):
        if kinds[i] == "depth" or p is None or not depth:
            nearest.append(None)
            continue
        nearest.append(min(depth, key=lambda j: abs(points[j][1] - p[1])))  # type: ignore[index]
    rows = [
        Row(label="kind", cells=list(kinds), unit="text", key="db/kind"),
        Row(label="ACE rounds", cells=[r.manifest.ace_rounds for r in runs], unit="count", key="db/rounds"),
        Row(label="point: pass rate · tokens · sandbox s", cells=[_point(p) for p in points], unit="text", key="db/point"),
        Row(label="sandbox seconds are", cells=[None if p is None else p[3] for p in points], unit="text", key="db/clock"),
        Row(label="depth run nearest in tokens", cells=[labels[j] if j is not None else None for j in nearest], unit="text", key="db/nearest"),
    ]  # fmt: skip
    rows += _paired_rows(runs, samples, nearest, resamples=resamples, seed=seed)
    caption = (
        "Depth (a line of ACE rounds) against breadth (after every round, B continuations of the best branch "
        "by visible score — whitebox cases and the testers' Oracle-answered inputs, never a hidden grade). "
        "Each run is one point: its pass rate at its mean spend per episode, tokens and sandbox seconds (the "
        "coder's and graders' sandboxes' CPU, every branch included — wall time where CPU was not read, as the row "
        "below says; the shared prefix counted once). Each breadth "
        "run is compared, paired on the samples both scored, with the depth run nearest to it in tokens."
    )
    return Table(
        id="depth_breadth",
        title="Depth against breadth at equal compute",
        caption=caption,
        columns=list(labels),
        rows=rows,
    )


def _point(p: tuple[float, float, float, str] | None) -> Cell:
    return None if p is None else f"{p[0]:.1f}% · {p[1]:,.0f} tok · {p[2]:.2f} s"


def parse_point(cell: object) -> tuple[float, float, float] | None:
    """(pass rate %, tokens, sandbox seconds) of a point cell, for the figures."""
    if not isinstance(cell, str) or " tok · " not in cell:
        return None
    rate, rest = cell.split("% · ", 1)
    tokens, seconds = rest.split(" tok · ", 1)
    return float(rate), float(tokens.replace(",", "")), float(seconds.removesuffix(" s"))


def _paired_rows(
    runs: Sequence[RunData],
    samples: Sequence[Sequence[SampleAgg]],
    nearest: Sequence[int | None],
    *,
    resamples: int,
    seed: int,
) -> list[Row]:
    diff: list[Cell] = []
    sign: list[Cell] = []
    for i, j in enumerate(nearest):
        found = None
        if j is not None:
            key = "/".join(sorted((runs[i].manifest.run_id, runs[j].manifest.run_id))) + "/paired-pr"
            found = paired_comparison(samples[i], samples[j], resamples=resamples, seed=seed, key=key)
        diff.append(
            None
            if found is None
            else f"{100 * found.difference:+.1f} [{100 * found.lo:+.1f}, {100 * found.hi:+.1f}]"
        )
        sign.append(
            None
            if found is None
            else f"{found.a_better} / {found.b_better} / {found.ties} · p = {found.p_value:.4g} ({found.samples} samples)"
        )
    return [
        Row(label="PR difference breadth − nearest depth, points (95% interval)", cells=diff, unit="text", key="db/diff"),
        Row(label="samples breadth / depth higher / tied · exact sign test p", cells=sign, unit="text", key="db/sign"),
    ]  # fmt: skip


def depth_breadth_figs(table: Table) -> list[str]:
    """Pass rate against tokens, and against sandbox seconds: one line per kind (depth, breadth ×B), a
    point per run labelled with its ACE rounds; a breadth line without a run at 0 rounds starts from
    depth's (with no round before it, a tree is a line)."""
    from repozero.orchestrator.report import svg  # the figures' side only

    rows = {r.key: r for r in table.rows}
    kinds, rounds, cells = rows["db/kind"].cells, rows["db/rounds"].cells, rows["db/point"].cells
    lines: dict[str, list[tuple[tuple[float, float], float, str]]] = {}
    for kind, r, cell in zip(kinds, rounds, cells, strict=True):
        p = parse_point(cell)
        if p is not None:  # x: (tokens, sandbox seconds); y: pass rate
            lines.setdefault(str(kind), []).append(((p[1], p[2]), p[0], f"{r} ACE rounds"))
    origin = [pt for pt in lines.get("depth", []) if pt[2] == "0 ACE rounds"]
    for kind, pts in lines.items():  # no round to fork before: every line starts where depth does
        if kind != "depth" and origin and not any(pt[2] == "0 ACE rounds" for pt in pts):
            pts.insert(0, origin[0])
    order = sorted(lines, key=lambda k: (k != "depth", len(k), k))
    clocks = {c for c in rows["db/clock"].cells if c is not None}
    seconds = (
        "sandbox CPU seconds per episode"
        if clocks == {"CPU"}
        else "sandbox seconds per episode (CPU or wall)"
    )
    figs = []
    for axis, x_label, fmt in (
        (0, "tokens per episode", "{:,.0f}"),
        (1, seconds if clocks != {"wall"} else "sandbox wall seconds per episode", "{:.4g}"),
    ):
        curves: list[svg.Curve] = [
            (
                kind,
                i,
                "" if kind == "depth" else "6 3",
                sorted((xs[axis], y, label) for xs, y, label in lines[kind]),
            )
            for i, kind in enumerate(order)
        ]
        figs.append(
            svg.curves(
                f"Depth against breadth: pass rate against {x_label}", curves, x_label=x_label, x_format=fmt
            )
        )
    return figs
