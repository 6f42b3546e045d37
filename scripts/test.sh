#!/usr/bin/env bash
# Run the whole test suite as CI does: set up, lint, type-check, test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
ruff check .
ruff format --check . || { echo "ruff format: the files above need formatting (run: ruff format .)"; exit 1; }
bash scripts/typecheck.sh   # mypy across modules (a plain `mypy .` cannot follow the folder mapping)
python3 scripts/lint_imports.py   # the import contracts in pyproject.toml ([tool.importlinter])
exec python3 -m pytest -q "$@"
