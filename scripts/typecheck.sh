#!/usr/bin/env bash
# Type-check the `repozero` package as one package, across its modules.
#
# The package is mapped from top-level folders (setup.py: orchestrator/ is repozero.orchestrator, ...), and
# the editable install reaches them through an import hook mypy cannot follow: a plain `mypy .` checks each
# file but sees every `repozero.*` import as missing (Any), so a wrong attribute or argument across modules
# goes unreported. Here the package is laid out as Python sees it — a tree of symlinks in a temporary folder,
# built from the same folder list as setup.py — and checked with `mypy -p repozero`; setup.py and the
# examples are then checked with that tree on MYPYPATH, so their imports of repozero resolve too.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

TREE=$(mktemp -d "${TMPDIR:-/tmp}/repozero-typecheck.XXXXXX")
trap 'rm -rf "$TREE"' EXIT
mkdir "$TREE/repozero"
for entry in repozero/*; do
  [ -L "$entry" ] && continue  # the subpackage links (for import-linter): linked below from setup.py's list
  ln -s "$ROOT/$entry" "$TREE/repozero/$(basename "$entry")"
done
for sub in $(python3 -c 'import ast, sys
tree = ast.parse(open("setup.py").read())
for node in ast.walk(tree):
    if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "SUBPACKAGES":
        print(" ".join(ast.literal_eval(node.value)))'); do
  ln -s "$ROOT/$sub" "$TREE/repozero/$sub"
done

# the project's [tool.mypy] settings; its own excludes are paths inside the checkout, so drop them here
export MYPYPATH="$TREE"
(cd "$TREE" && mypy --config-file "$ROOT/pyproject.toml" --cache-dir "$ROOT/.mypy_cache/package" \
  --exclude '/builtin/' -p repozero)
# what lies outside the package: the examples (from the tree's folder: the checkout root on mypy's path
# would make our datasets/ folder shadow Hugging Face's `datasets`), then setup.py alone
EXAMPLES=$(compgen -G "$ROOT/examples/*.py" || true)
if [ -n "$EXAMPLES" ]; then
  # shellcheck disable=SC2086  # one argument per example file
  (cd "$TREE" && mypy --config-file "$ROOT/pyproject.toml" --cache-dir "$ROOT/.mypy_cache/examples" \
    --follow-imports=silent $EXAMPLES)
fi
mypy --config-file pyproject.toml --cache-dir "$ROOT/.mypy_cache/setup" setup.py
