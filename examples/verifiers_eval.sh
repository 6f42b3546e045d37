#!/usr/bin/env bash
# RepoZero through verifiers, end to end: the loopback model server plays a scripted policy as an
# OpenAI-compatible model, verifiers' own `vf-eval` runs three samples of builtin:py2js-lite through the
# `repozero_verifiers` environment (our sandboxes, our grader as the rubric), and the rewards are read back
# from the run's traces.jsonl. Last two lines:
#   verifiers_gold_reward: <mean reward (passed) over the samples, policy gold>
#   verifiers_never_reward: <the same, policy never>
# Needs scripts/setup.sh (scripts/setup.d/61-inspect-verifiers.sh installs verifiers and the taskset id).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v vf-eval >/dev/null || { echo "examples/verifiers_eval.sh: vf-eval not found: run scripts/setup.sh first" >&2; exit 2; }
LIMIT="${LIMIT:-3}"
ACE_ROUNDS="${ACE_ROUNDS:-1}"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/repozero-verifiers.XXXXXX")
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

serve() { # serve POLICY: start the loopback server (it runs until this script ends); its URL in $URL
  repozero fake-llm serve --policy "$1" --dataset builtin:py2js-lite --port 0 >"$WORK/$1.url" 2>"$WORK/$1.err" &
  PIDS+=($!)
  for _ in $(seq 100); do
    if [ -s "$WORK/$1.url" ]; then URL=$(head -n 1 "$WORK/$1.url"); return; fi
    sleep 0.1
  done
  echo "examples/verifiers_eval.sh: the loopback server did not start: $(cat "$WORK/$1.err")" >&2
  exit 1
}

reward() { # reward POLICY URL -> mean reward over the samples, read back from vf-eval's traces.jsonl
  vf-eval repozero_verifiers --env.taskset.dataset builtin:py2js-lite --env.taskset.ace-rounds "$ACE_ROUNDS" \
    -n "$LIMIT" -m "fake-$1" --client.base-url "$2/v1" --client.api-key-var REPOZERO_NO_KEY --no-push \
    -o "$WORK/vf-$1" >&2
  python3 - "$WORK/vf-$1" <<'PY'
import json, pathlib, sys

episodes = [json.loads(line) for f in pathlib.Path(sys.argv[1]).rglob("traces.jsonl") for line in f.open()]
rewards = []
for episode in episodes:
    trace = episode["traces"][0]
    assert episode["ok"], episode.get("errors")
    grade = trace["info"]["repozero_grade"]
    rewards.append(trace["rewards"]["passed"]["score"])
    print("  %s: passed %s, success rate %.3f, %s" % (episode["task"]["data"]["id"], grade["passed"],
          grade["success_rate"], grade["failure_category"]), file=sys.stderr)
print("%.3f" % (sum(rewards) / len(rewards)))
PY
}

serve gold
gold=$(reward gold "$URL")
serve never
never=$(reward never "$URL")
echo "verifiers_gold_reward: $gold"
echo "verifiers_never_reward: $never"
