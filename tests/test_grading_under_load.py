"""A busy machine never fails a correct program: the built-in gold targets graded through the real grader,
repeatedly, while hogs of our own keep every core busy and fork without pause — every case passes, on
both sandbox backends (issue 27, item 2).

The hogs run at the grader's own priority: twice as many CPU spinners as cores, plus a shell forking
`/bin/true` in a loop (spawn contention), so the load average is several times the core count, as on the
shared machine where a gold case was once read as `runtime_error`."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import anyio
import pytest

from repozero.config_file import load_config
from repozero.datasets import load_dataset
from repozero.oracle.evaluate import gold_jobs, grade_many
from repozero.orchestrator.engine.protocols import get_protocol
from repozero.sandbox import SandboxBackend

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

# five packages' golds (big-integer, float formatting, regex, string-table and Unicode-heavy code paths)
SAMPLES = [
    "base58-check",
    "humanize-size",
    "inflection-words",
    "roman-batch",
    "semver-bump",
    "slugify-options",
]
REPEATS = 2


@contextmanager
def machine_busy() -> Iterator[list[subprocess.Popen[bytes]]]:
    cores = len(os.sched_getaffinity(0))
    spin = [sys.executable, "-c", "while True: pass"]
    fork = ["/bin/sh", "-c", "while :; do /bin/true; done"]
    hogs = [subprocess.Popen(spin) for _ in range(2 * cores)] + [subprocess.Popen(fork)]
    try:
        yield hogs
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


@pytest.mark.timeout(900)  # the hogs slow the grading down several times, on purpose
async def test_gold_targets_pass_every_case_while_the_machine_is_busy(
    sandbox_backend: SandboxBackend,
) -> None:
    dataset = load_dataset("builtin:py2js-lite")
    jobs = gold_jobs(dataset, SAMPLES) * REPEATS
    # a scored run's policy: the protocol's case timeout (5 s), its stop-after-timeouts, the config's cap
    policy = get_protocol("repozero-strict").grading_policy(load_config().sandbox.output_cap)
    with machine_busy() as hogs:
        with anyio.fail_after(900):
            grades = await grade_many(sandbox_backend, jobs, policy, run_id="under-load")
        assert all(h.poll() is None for h in hogs)  # the load really ran throughout
    not_passing = [
        (g.sample, c.id, c.status, c.exit_code) for g in grades for c in g.cases if c.status != "pass"
    ]
    assert not_passing == []
    assert all(not g.infra_error for g in grades) and len(grades) == len(SAMPLES) * REPEATS
