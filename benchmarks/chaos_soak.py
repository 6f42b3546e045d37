"""A soak under faults: runs of 200 episodes (Docker sandboxes) against a loopback model server that fails
5 % of requests (429, 500, cut streams, malformed bodies, truncated answers, invalid tool arguments) and is
killed -9 and restarted on the same port once a minute, for 20 minutes (runs follow each other until the
time is up; the last one is let finish). Printed: episodes planned and finished, infra errors, episode
retries after an infra failure, model retries, lost episodes (planned but not ended exactly once in the
results store and the traces — must be 0) and the run process's RSS growth; last line
`soak_lost_episodes: <n>`. A run that exits non-zero has the last lines of its log printed and is resumed,
as a user would (at most 3 times; `resumes` counts them): lost is what is still not ended after that.

    python benchmarks/chaos_soak.py                          # 20 minutes
    python benchmarks/chaos_soak.py --minutes 3 --sandbox local   # a short smoke run
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import msgspec

from repozero.datasets import load_dataset
from repozero.datasets.disk import write_sample
from repozero.traces import TraceReader

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "fakellm"
FAULTS = "429,500,cut,malformed,truncated,bad-tool-args"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=20.0, help="how long to soak (default 20)")
    ap.add_argument("--episodes", type=int, default=200, help="episodes per run (default 200)")
    ap.add_argument("--fault-rate", type=float, default=0.05)
    ap.add_argument("--restart-every-s", type=float, default=60.0, help="model server killed and restarted")
    ap.add_argument("--down-s", type=float, default=3.0, help="how long the server stays away each time")
    ap.add_argument("--sandbox", choices=["local", "docker"], default="docker")
    ap.add_argument("--concurrency", type=int, default=8)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="rz-soak-"))
    try:
        soak(args, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def soak(args: argparse.Namespace, work: Path) -> None:
    copies = max(1, args.episodes // 20)
    attempts = max(1, args.episodes // (2 * copies))
    dataset = make_dataset(work, copies)
    port = free_port()
    config = work / "endpoint.toml"
    config.write_text(
        f'[endpoints.soak]\nbase_urls = ["http://127.0.0.1:{port}/v1"]\nmax_retries = 30\n'
        "retry_initial_s = 0.5\nretry_max_s = 4.0\n"
    )
    server_flags = ["--fault-rate", str(args.fault_rate), "--faults", FAULTS, "--latency-ms", "50"]
    deadline = time.monotonic() + args.minutes * 60
    totals: Counter[str] = Counter()
    chaos = Chaos(port, dataset, work / "server.log", server_flags, args)
    try:
        n = 0
        while n == 0 or time.monotonic() < deadline:
            run_dir = work / f"run-{n}"
            log = work / f"run-{n}.log"
            argv = [
                sys.executable, "-m", "repozero", "run", "--config", str(config), "--dataset", str(dataset),
                "--model", "soak", "--ace-rounds", "1", "--attempts", str(attempts), "--concurrency",
                str(args.concurrency), "--sandbox", args.sandbox, "--out", str(run_dir), "--json",
                "--display", "off",
            ]  # fmt: skip
            code = chaos.drive(argv, log, work / f"run-{n}.out")
            resumes = 0
            while code != 0 and resumes < 3:  # what a user does after a failed run: resume it
                tail = log.read_text(errors="replace").strip().splitlines()[-3:]
                print(f"run {n}: exit {code}: {' | '.join(tail)}; resuming", flush=True)
                resume = [
                    *argv[:4], "--resume", str(run_dir), "--config", str(config), "--sandbox", args.sandbox,
                    "--json", "--display", "off",
                ]  # fmt: skip
                code = chaos.drive(resume, log, work / f"run-{n}.out")
                resumes += 1
            one = tally(run_dir, log, work / f"run-{n}.out", code)
            one["resumes"] = resumes
            totals += one
            print(f"run {n}: exit {code}, {dict(one)}", flush=True)
            n += 1
    finally:
        stop(chaos.server)
    print(f"runs: {n}   server restarts: {chaos.restarts}   sandbox: {args.sandbox}")
    for key in ("planned", "finished", "infra_error", "episode_retries", "model_retries", "resumes", "lost"):
        print(f"{key}: {totals[key]}")
    print(f"rss_growth_mb: {chaos.rss_growth:.1f}")
    print(f"soak_lost_episodes: {totals['lost']}")


class Chaos:
    """The model server, killed -9 and restarted on its port every `--restart-every-s`, while runs go on."""

    def __init__(
        self, port: int, dataset: Path, log: Path, flags: list[str], args: argparse.Namespace
    ) -> None:
        self.args, self.start = args, (port, dataset, log, flags)
        self.server = serve(*self.start)
        self.restarts = 0
        self.rss_growth = 0.0
        self.next_restart = time.monotonic() + args.restart_every_s

    def drive(self, argv: list[str], log: Path, out: Path) -> int:
        """Run `argv` to its end (stderr appended to `log`, stdout to `out`), restarting the server on time."""
        with log.open("ab") as err, out.open("wb") as stdout:
            run = subprocess.Popen(argv, stdout=stdout, stderr=err, start_new_session=True)
        rss: list[float] = []
        while run.poll() is None:
            time.sleep(1.0)
            if (kb := rss_kb(run.pid)) is not None:
                rss.append(kb / 1024)
            if time.monotonic() >= self.next_restart:
                stop(self.server)
                time.sleep(self.args.down_s)
                self.server = serve(*self.start)
                self.restarts += 1
                self.next_restart = time.monotonic() + self.args.restart_every_s
        settled = rss[min(len(rss) - 1, 30) :] if rss else []  # past start-up (imports, pools)
        if len(settled) > 1:
            self.rss_growth = max(self.rss_growth, settled[-1] - settled[0])
        return int(run.returncode)


def tally(run_dir: Path, log: Path, out: Path, code: int | None) -> Counter[str]:
    """What one run ended with; `lost`: planned episodes not ended exactly once in store and traces."""
    manifest = json.loads((run_dir / "manifest.json").read_text())
    planned = {f"{s}--a{a}" for s in manifest["samples"] for a in range(manifest["attempts"])}
    con = sqlite3.connect(run_dir / "results.sqlite")
    try:
        rows = con.execute("SELECT episode_id, status FROM episodes").fetchall()
    finally:
        con.close()
    ended = {e: s for e, s in rows if s in ("finished", "infra_error")}
    traced = Counter(e.episode_id for e in TraceReader(run_dir / "traces").finished_episodes())
    once = {e for e in planned if e in ended and traced.get(e) == 1}
    summary = json.loads(out.read_text() or "{}") if code == 0 else {}
    text = log.read_text(errors="replace")
    return Counter(
        planned=len(planned),
        finished=sum(s == "finished" for s in ended.values()),
        infra_error=sum(s == "infra_error" for s in ended.values()),
        episode_retries=text.count("episode_infra_error") + text.count("episode_crashed"),
        model_retries=int(summary.get("model_retries", 0)),
        lost=len(planned - once),
    )


def make_dataset(work: Path, copies: int) -> Path:
    root = work / "ds"
    shutil.copytree(FIXTURE, root)
    for sample in load_dataset(root).samples:
        for n in range(1, copies):
            new_id = f"{sample.id}-c{n}"
            shutil.copytree(root / "samples" / sample.id, root / "samples" / new_id)
            write_sample(root, msgspec.structs.replace(sample, id=new_id))
    return root


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(port: int, dataset: Path, log: Path, flags: list[str]) -> subprocess.Popen[bytes]:
    argv = [
        sys.executable, "-m", "repozero", "fake-llm", "serve", "--port", str(port), "--policy",
        "buggy-then-fix", "--dataset", str(dataset), *flags,
    ]  # fmt: skip
    with log.open("ab") as err:
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc
        time.sleep(0.05)
    raise SystemExit(f"the model server did not listen on {port}")


def stop(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def rss_kb(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


if __name__ == "__main__":
    main()
