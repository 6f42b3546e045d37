"""Agent steps per second: `repozero run` against mini-swe-agent, the same loopback server, agents and steps.

mini-swe-agent (2.4.6, through litellm) is installed into a throwaway venv (cached under
~/.cache/repozero/bench/, `--fresh-venv` rebuilds it) — never a project dependency. Both systems talk to
one `repozero fake-llm serve` process (zero latency, policy `steps:N-1`: N-1 trivial commands `echo step K`,
then the submission) with A agents at once, and both save their trajectories:

- mini-swe-agent: its batch shape — one `DefaultAgent` per thread (A threads), `LitellmTextbasedModel`
  (`openai/fake` at the server's `/v1`, cost tracking off), `LocalEnvironment` (a subprocess per command, no
  sandbox), its text-based templates with the prompt header in front, `output_path` per agent (it rewrites
  the trajectory file every step). The server's `echo REPOZERO_SUBMIT` counts as its submission.
- RepoZero: `repozero run` in-process (benchmarks/concurrency.py's orchestrator phase): A episodes at once,
  local sandboxes (bubblewrap, persistent shells), traces, results store, action log, events, progress.
  Like mini-swe-agent it asks for plain chat completions — whole responses, no token ids or logprobs —
  so the server does the same work for both. RepoZero streams by default (SSE: time to first token, an
  idle-stream timeout); that costs both sides more per call, so a streamed run of RepoZero is printed apart
  (`repozero_streamed_steps_per_s`), not in the ratio.

Steps per second = model calls / agent-phase wall (threads start → last agent done; `RunStarted` → last
agent submitted). RepoZero's grading after the agents is not part of it (mini-swe-agent grades nothing).
On a shared machine the wall depends on everyone else's load, so each system's CPU per step over the same
phase is printed too: the process's own (user + system), and for mini-swe-agent apart the commands'
subprocesses it waited for (RepoZero's persistent shells are not reaped until their sandbox closes, and an
`echo` costs them next to nothing). `--repeat N` runs both N times (one server) and prints each run and the
median; the last line is the median ratio.

    python benchmarks/vs_mini_swe_agent.py [--agents 32] [--steps 20] [--repeat 3] [--fresh-venv]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from concurrency import SAMPLE, run_phase, start_server

VERSION = "2.4.6"
VENV = Path.home() / ".cache" / "repozero" / "bench" / f"mini-swe-agent-{VERSION}"

DRIVER = r"""
import json, resource, sys, time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

began = time.time()
import yaml
import minisweagent
from minisweagent.agents.default import DefaultAgent
from minisweagent.environments.local import LocalEnvironment
from minisweagent.exceptions import Submitted
from minisweagent.models.litellm_textbased_model import LitellmTextbasedModel
import_s = time.time() - began

url, agents, steps, out, sample = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4]), sys.argv[5]
config = yaml.safe_load((Path(minisweagent.__file__).parent / "config" / "mini_textbased.yaml").read_text())
header = f"<!-- repozero: sample={sample} role=coder scaffold=bash -->\n"


class Env(LocalEnvironment):
    def _check_finished(self, output):
        if output.get("output", "").strip() == "REPOZERO_SUBMIT" and output["returncode"] == 0:
            raise Submitted({"role": "exit", "content": "", "extra": {"exit_status": "Submitted", "submission": ""}})
        super()._check_finished(output)


def one(n):
    work = out / f"work-{n}"
    work.mkdir(parents=True)
    model = LitellmTextbasedModel(
        model_name="openai/fake",
        model_kwargs={**config["model"]["model_kwargs"], "api_base": f"{url}/v1", "api_key": "none"},
        observation_template=config["model"]["observation_template"],
        format_error_template=config["model"]["format_error_template"],
        action_regex=r"```bash\s*\n(.*?)\n```",
        cost_tracking="ignore_errors",
    )
    agent = DefaultAgent(
        model,
        Env(cwd=str(work), env=config["environment"]["env"]),
        system_template=header + config["agent"]["system_template"],
        instance_template=config["agent"]["instance_template"],
        step_limit=steps + 5,
        cost_limit=0,
        output_path=out / f"traj-{n}.json",
    )
    result = agent.run("Re-implement the package in JavaScript.")
    return agent.n_calls, result.get("exit_status")


def cpu(who):
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


started, cpu0, children0 = time.time(), cpu(resource.RUSAGE_SELF), cpu(resource.RUSAGE_CHILDREN)
with ThreadPoolExecutor(max_workers=agents) as pool:
    results = list(pool.map(one, range(agents)))
wall = time.time() - started
cpu_s, children_s = cpu(resource.RUSAGE_SELF) - cpu0, cpu(resource.RUSAGE_CHILDREN) - children0
exits = sorted({status for _, status in results})
steps = sum(n for n, _ in results)
print(json.dumps({"wall_s": wall, "steps": steps, "exits": exits, "import_s": import_s, "cpu_s": cpu_s,
                  "children_cpu_s": children_s}))
"""


def venv_python(fresh: bool) -> Path:
    python = VENV / "bin" / "python"
    if fresh and VENV.exists():
        shutil.rmtree(VENV)
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
        subprocess.run([*pip, f"mini-swe-agent=={VERSION}"], check=True)
    return python


def mini_phase(python: Path, url: str, agents: int, steps: int, out: Path) -> dict[str, Any]:
    script = out / "driver.py"
    out.mkdir(parents=True)
    script.write_text(DRIVER)
    env = {**os.environ, "MSWEA_COST_TRACKING": "ignore_errors", "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    cmd = [str(python), str(script), url, str(agents), str(steps), str(out / "runs"), SAMPLE]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=out)
    if proc.returncode != 0:
        raise SystemExit(f"mini-swe-agent failed:\n{proc.stderr[-4000:]}")
    result = dict(json.loads(proc.stdout.strip().splitlines()[-1]))
    result["trajectories"] = len(list((out / "runs").glob("traj-*.json")))
    return result


def one_round(python: Path, url: str, args: argparse.Namespace, tmp: Path) -> dict[str, float]:
    """Both systems once, one after the other, against the same server."""
    mini = mini_phase(python, url, args.agents, args.steps, tmp / "mini")
    phase = argparse.Namespace(episodes=args.agents, steps=args.steps, docker=False, token_ids=False)
    ours = run_phase("orchestrator", argparse.Namespace(**vars(phase), stream=False), url, tmp / "run")
    streamed = run_phase(
        "orchestrator", argparse.Namespace(**vars(phase), stream=True), url, tmp / "streamed"
    )
    traced = (ours["traced_episodes"], streamed["traced_episodes"])
    if mini["trajectories"] != args.agents or traced != (args.agents, args.agents):
        raise SystemExit(f"incomplete: {mini['trajectories']} trajectories, {traced} traces")
    mini_rate, ours_rate = mini["steps"] / mini["wall_s"], ours["model_calls"] / ours["wall_s"]
    print(f"# mini-swe-agent exits: {mini['exits']}; import {mini['import_s']:.2f} s", file=sys.stderr)
    return {
        "load_average_1m": os.getloadavg()[0],
        "mini_swe_agent_steps": mini["steps"],
        "mini_swe_agent_wall_s": mini["wall_s"],
        "mini_swe_agent_steps_per_s": mini_rate,
        "mini_swe_agent_cpu_ms_per_step": 1000 * mini["cpu_s"] / mini["steps"],
        "mini_swe_agent_children_cpu_ms_per_step": 1000 * mini["children_cpu_s"] / mini["steps"],
        "repozero_steps": ours["model_calls"],
        "repozero_wall_s": ours["wall_s"],
        "repozero_steps_per_s": ours_rate,
        "repozero_cpu_ms_per_step": 1000 * ours["agents_cpu_s"] / ours["model_calls"],
        "repozero_streamed_steps_per_s": streamed["model_calls"] / streamed["wall_s"],
        "cpu_per_step_ratio": mini["cpu_s"] / mini["steps"] / (ours["agents_cpu_s"] / ours["model_calls"]),
        "steps_per_s_ratio": ours_rate / mini_rate,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", type=int, default=32, help="agents at once, in both systems")
    parser.add_argument("--steps", type=int, default=20, help="model calls per agent (the last submits)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of both systems; the median is reported")
    parser.add_argument("--fresh-venv", action="store_true", help="rebuild the throwaway mini-swe-agent venv")
    args = parser.parse_args()
    python = venv_python(args.fresh_venv)
    print(f"load_average_1m_before: {os.getloadavg()[0]:.2f}")
    print(f"cores: {os.cpu_count()}")
    print(f"agents: {args.agents}")
    print(f"model_calls_per_agent: {args.steps}")
    print(f"mini_swe_agent_version: {VERSION}")
    server, url = start_server(args.steps, 0.0)
    rounds = []
    try:
        for n in range(args.repeat):
            with tempfile.TemporaryDirectory(prefix="rz-vs-mini-") as tmp:
                rounds.append(one_round(python, url, args, Path(tmp)))
            print(f"# run {n + 1}: " + " ".join(f"{k}={v:.2f}" for k, v in rounds[-1].items()))
    finally:
        server.terminate()
        server.wait()
        if server.stdout is not None:
            server.stdout.close()
    for key in rounds[0]:  # the median of each figure (the ratio's median is not the ratio of medians)
        value = statistics.median(r[key] for r in rounds)
        print(f"{key}: {value:.0f}" if key.endswith("_steps") else f"{key}: {value:.2f}")


if __name__ == "__main__":
    main()
