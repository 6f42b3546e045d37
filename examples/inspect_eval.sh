#!/usr/bin/env bash
# RepoZero through inspect-ai, end to end: the loopback model server plays a scripted policy as an
# OpenAI-compatible model, `inspect eval repozero/repozero` runs three samples of builtin:py2js-lite in the
# `repozero` sandbox and grades them with our grader, `inspect log dump` reads each log back. Last two lines:
#   inspect_gold_score: <mean pass over the samples, policy gold>
#   inspect_never_score: <the same, policy never>
# Needs scripts/setup.sh (scripts/setup.d/61-inspect-verifiers.sh installs inspect-ai in its own venv).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${REPOZERO_INSPECT_VENV:-${XDG_DATA_HOME:-$HOME/.local/share}/repozero/venvs/inspect-ai}"
INSPECT="$VENV/bin/inspect"
[ -x "$INSPECT" ] || { echo "examples/inspect_eval.sh: $INSPECT not found: run scripts/setup.sh first" >&2; exit 2; }
LIMIT="${LIMIT:-3}"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/repozero-inspect.XXXXXX")
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
  echo "examples/inspect_eval.sh: the loopback server did not start: $(cat "$WORK/$1.err")" >&2
  exit 1
}

score() { # score POLICY URL -> mean of the `passed` score over the samples, read back with `inspect log dump`
  OPENAI_BASE_URL="$2/v1" OPENAI_API_KEY=unused "$INSPECT" eval repozero/repozero \
    -T dataset=builtin:py2js-lite --limit "$LIMIT" --model "openai/fake-$1" -M responses_api=false \
    --log-dir "$WORK/logs-$1" --display none >&2
  "$INSPECT" log dump "$(ls "$WORK/logs-$1"/*.eval)" | python3 -c '
import json, sys
log = json.load(sys.stdin)
assert log["status"] == "success", log.get("error")
scores = {s["name"]: s["metrics"]["mean"]["value"] for s in log["results"]["scores"]}
for sample in log["samples"]:
    score = sample["scores"]["repozero_grader"]
    print("  %s: %s %s" % (sample["id"], score["value"], score["metadata"]["failure_category"]), file=sys.stderr)
print("%.3f" % scores["passed"])'
}

serve gold
gold=$(score gold "$URL")
serve never
never=$(score never "$URL")
echo "inspect_gold_score: $gold"
echo "inspect_never_score: $never"
