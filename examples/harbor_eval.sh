#!/usr/bin/env bash
# RepoZero through Harbor, end to end: `repozero export harbor` writes three samples of builtin:py2js-lite as
# Harbor tasks, and the real `harbor run` plays them on local Docker twice — with its `oracle` agent (the
# gold reference as solution) and its `nop` agent (an empty repository). Each trial is graded by the task's
# own verifier; the means are Harbor's own, read from each job's result.json. Last two lines:
#   harbor_gold_reward: <mean reward, oracle agent>
#   harbor_empty_reward: <mean reward, nop agent>
# Starts dockerd and installs Harbor when they are missing (scripts/setup.d/20-docker.sh, 60-harbor.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
SAMPLES="${SAMPLES:-roman-*}"  # a glob: roman-batch and roman-numerals ...
EXTRA="${EXTRA:-base58-check}" # ... and one more
bash scripts/setup.d/20-docker.sh >/dev/null 2>&1 || bash scripts/setup.d/20-docker.sh
bash scripts/setup.d/60-harbor.sh >/dev/null 2>&1 || bash scripts/setup.d/60-harbor.sh
HARBOR="${REPOZERO_HARBOR_VENV:-/opt/repozero-harbor}/bin/harbor"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/repozero-harbor.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export LITELLM_LOCAL_MODEL_COST_MAP=True  # Harbor fetches a model price table from the internet otherwise

repozero export harbor builtin:py2js-lite --out "$WORK/tasks" --samples "$SAMPLES" >&2
repozero export harbor builtin:py2js-lite --out "$WORK/tasks" --samples "$EXTRA" >&2

mean() { # mean AGENT: harbor run on every task; Harbor's mean of the `reward` key
  "$HARBOR" run -p "$WORK/tasks" -a "$1" -e docker -o "$WORK/jobs" --job-name "$1" -n 2 -y -q >"$WORK/$1.log" 2>&1 \
    || { tail -n 40 "$WORK/$1.log" >&2; exit 1; }
  python3 - "$WORK/jobs/$1" <<'PY'
import json, sys
from pathlib import Path

job = Path(sys.argv[1])
for trial in sorted(job.glob("*/result.json")):
    r = json.loads(trial.read_text())
    grade = trial.parent / "verifier" / "grade.json"
    category = json.loads(grade.read_text())["failure_category"] if grade.is_file() else r["exception_info"]
    print(f"  {r['task_name']}: {(r['verifier_result'] or {}).get('rewards')} {category}", file=sys.stderr)
(evals,) = json.loads((job / "result.json").read_text())["stats"]["evals"].values()
assert evals["n_errors"] == 0, evals
print("%.3f" % evals["metrics"][0]["reward"])
PY
}

gold=$(mean oracle)
empty=$(mean nop)
echo "harbor_gold_reward: $gold"
echo "harbor_empty_reward: $empty"
