"""The sweep's live panel: a line per cell (done of total, running, pass rate), the run's panel summed over
the cells, episodes in flight named CELL/EPISODE (episode ids repeat across cells and must not mix), and the
plain `sweep_progress` fields."""

from __future__ import annotations

import random

from rich.console import Console

from repozero.orchestrator.engine.limits import LimiterQueue
from repozero.orchestrator.sweeps.sweep_progress import SweepProgress, cell_fields, sweep_panel
from repozero.traces import EpisodeFinished

from .synthetic_traces import episode_events


def test_cells_keep_their_episodes_apart_and_the_panel_sums_them() -> None:
    rng = random.Random(6)
    queues = {"episodes": LimiterQueue(3, 4, 0)}
    progress = SweepProgress(lambda: queues)
    a = progress.add_cell(
        "aaaaaaaa11112222", {"model": "fake:gold", "ace_rounds": 0}, total=4, already_done=1
    )
    b = progress.add_cell(
        "bbbbbbbb33334444", {"model": "fake:never", "ace_rounds": 1}, total=3, already_done=0
    )
    same = [episode_events(n, rng=rng, steps=2) for n in range(2)]  # the same two episode ids in each cell
    for events in same:
        a.emit(events[0])
        b.emit(events[0])
    for event in same[0][1:]:  # cell a's episode 0 finishes; b's episode 0, with the same id, still runs
        a.emit(event)
    assert isinstance(same[0][-1], EpisodeFinished)

    lines = {c.cell_key: c for c in progress.lines()}
    assert (lines["aaaaaaaa11112222"].done, lines["aaaaaaaa11112222"].running) == (2, 1)
    assert (lines["bbbbbbbb33334444"].done, lines["bbbbbbbb33334444"].running) == (0, 2)
    snap = progress.snapshot()
    assert (snap.done, snap.total, snap.running, snap.queued) == (2, 7, 3, 2)
    assert sorted(f.episode_id for f in snap.slowest) == [
        "aaaaaaaa/synthetic-ep1",
        "bbbbbbbb/synthetic-ep0",
        "bbbbbbbb/synthetic-ep1",
    ]

    console = Console(width=110, record=True, color_system=None)
    console.print(sweep_panel(progress, "sweep/cells/*/events.log", 110))
    text = console.export_text()
    assert "repozero sweep · 2 cells" in text and "2/7 done · 3 running · 2 queued" in text
    cells = {p[0]: p for p in (line.strip("│ ").split() for line in text.splitlines()) if p}
    assert cells["aaaaaaaa"][1:3] == ["model=fake:gold", "ace_rounds=0"] and "2/4" in cells["aaaaaaaa"]
    assert cells["bbbbbbbb"][-3:] == ["0/3", "2", "—"]  # done of total, running, no pass rate yet
    assert "info events → sweep/cells/*/events.log" in text

    fields = cell_fields(progress)
    assert fields["done"] == "2/7" and fields["cell_aaaaaaaa"] == "2/4" and fields["cell_bbbbbbbb"] == "0/3"


def test_the_last_frame_of_a_stopped_sweep_lists_nothing_as_running() -> None:
    """As a run's: the episodes in flight when the sweep stopped are interrupted, no cell runs any, no
    slowest in flight, no time left."""
    rng = random.Random(9)
    progress = SweepProgress(dict)
    a = progress.add_cell("aaaaaaaa11112222", {"ace_rounds": 0}, total=3, already_done=0)
    b = progress.add_cell("bbbbbbbb33334444", {"ace_rounds": 1}, total=2, already_done=0)
    for counter in (a, b):
        counter.emit(episode_events(0, rng=rng)[0])
    final = progress.final_snapshot()
    assert (final.running, final.stopped, final.slowest, final.eta_s) == (0, 2, [], None)
    assert [c.running for c in progress.lines(final=True)] == [0, 0]
    console = Console(width=110, record=True, color_system=None)
    console.print(sweep_panel(progress, None, 110, final=True))
    text = console.export_text()
    assert "0/5 done · 2 interrupted · 3 queued" in text and "synthetic-ep0" not in text
