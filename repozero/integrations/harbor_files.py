"""The text of an exported Harbor task's fixed files: task.toml, the two Dockerfiles, test.sh, solve.sh.

Kept apart from the exporter so what a task contains can be read in one place. Everything here is a
template filled with values the exporter computed (image tags, the driver's flags, time limits); none of it
holds case data.
"""

from __future__ import annotations

import json
import shlex

__all__ = [
    "VERIFIER_COMPOSE",
    "agent_dockerfile",
    "solve_sh",
    "task_toml",
    "test_sh",
    "verifier_dockerfile",
]

WORKDIR = "/work"
"""The target repository's root in both images: where the agent builds and where the cases run."""

PYROOT = "/opt/repozero-python"
"""The verifier image's private Python root (our `python-source` image), readable by root only."""

VERIFIER_COMPOSE = "services:\n  main:\n    network_mode: none\n"
"""The verifier container has no network, as the grader's sandbox has none."""


def _toml_str(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def task_toml(
    *,
    name: str,
    sample: str,
    dataset: str,
    meta: dict[str, str],
    agent_timeout_s: int,
    verifier_timeout_s: int,
) -> str:
    """Harbor's task.toml: the agent's repository travels to a separate, network-less verifier as an artifact."""
    lines = [
        'schema_version = "1.4"',
        f'artifacts = ["{WORKDIR}"]',
        "",
        "[task]",
        f"name = {_toml_str(name)}",
        f"description = {_toml_str(f'RepoZero {dataset}: re-implement sample {sample}')}",
        "",
        "[metadata]",
        *(f"{key} = {_toml_str(value)}" for key, value in sorted(meta.items())),
        "",
        "[agent]",
        f"timeout_sec = {agent_timeout_s}",
        "user = 1000  # the images' sandbox user, as in RepoZero's own sandboxes",
        "",
        "[verifier]",
        f"timeout_sec = {verifier_timeout_s}",
        'user = "root"',
        'environment_mode = "separate"',
        "",
        "[environment]",
        "build_timeout_sec = 600",
        "cpus = 1",
        "memory_mb = 2048",
        "",
    ]
    return "\n".join(lines)


def agent_dockerfile(image: str) -> str:
    return (
        "# The agent's environment: RepoZero's offline target image (no Python, no source package), the\n"
        f"# repository root {WORKDIR} owned by the sandbox user.\n"
        f"FROM {image}\n"
        "USER root\n"
        f"RUN chown 1000:1000 {WORKDIR}\n"
        "USER 1000:1000\n"
        f"WORKDIR {WORKDIR}\n"
    )


def verifier_dockerfile(image: str, python_image: str) -> str:
    return (
        "# The verifier's environment: the same target image, plus a private Python root (RepoZero's\n"
        "# python-source image) that only root can enter, for the rule check and the judging. The cases run\n"
        "# as the sandbox user, who can read neither this folder nor that root.\n"
        f"FROM {image}\n"
        "USER root\n"
        f"COPY --from={python_image} / {PYROOT}\n"
        "COPY . /tests\n"
        f"RUN chmod 700 /tests {PYROOT} && chmod 755 /tests/test.sh\n"
    )


def solve_sh() -> str:
    return (
        "#!/bin/sh\n"
        "# Install the sample's gold reference as the repository.\n"
        "set -eu\n"
        f"cp -R /solution/gold/. {WORKDIR}/\n"
    )


def test_sh(
    *, sample: str, language: str, entry_binary: str, driver_args: list[str], build_timeout_s: int
) -> str:
    """The verifier: rule check, build (Rust), one batch through RepoZero's driver, judge, reward files."""
    return f"""#!/bin/sh
# RepoZero verifier for sample {sample}, as RepoZero's grader grades it: static rule check on the agent's
# repository, {"`cargo build --release --offline` of a copy without target/ and .git, " if language == "rust" else ""}every case
# through the grader's batch driver as the sandbox user (strict stdout bytes and exit code), then
# /logs/verifier/reward.txt (1 if all pass, else 0), reward.json (PR, SR, passed and total case counts),
# ctrf.json (each case's status, as a CTRF test report) and grade.json (the whole grade). Runs as root.
set -u
ROOT={PYROOT}
C=$ROOT/check
OUT=/logs/verifier
LANGUAGE={language}
ENTRY_BINARY={shlex.quote(entry_binary)}
PY() {{ /usr/sbin/chroot "$ROOT" /usr/bin/python3 -I /check/verify.py "$@"; }}
as_sandbox() {{ setpriv --reuid=1000 --regid=1000 --clear-groups "$@"; }}

mkdir -p "$OUT" && chmod 755 "$OUT"
rm -rf "$C" /tmp/agent-work && mkdir -p "$C/target" "$C/out"
cp /tests/verify.py /tests/task.json "$C/" && cp -R /tests/rules "$C/rules"
# the agent's repository (Harbor re-creates the {WORKDIR} artifact here); graded from a fresh copy
[ -d {WORKDIR} ] && cp -a {WORKDIR}/. "$C/target/"
mv {WORKDIR} /tmp/agent-work 2>/dev/null; mkdir -p {WORKDIR}
PY scan /check/target /check/task.json > "$C/scan.json" || {{ echo "rule check failed"; exit 1; }}
if [ "$LANGUAGE" = rust ]; then
  tar -C "$C/target" --exclude=./target --exclude=./.git -cf - . | tar -C {WORKDIR} -xf -
else
  cp -a "$C/target/." {WORKDIR}/
fi
chown -R 1000:1000 {WORKDIR}

if grep -q '"runnable": true' "$C/scan.json" && [ "$LANGUAGE" = rust ]; then
  rm -rf /tmp/build && cp -a {WORKDIR} /tmp/build && chown -R 1000:1000 /tmp/build
  (cd /tmp/build && as_sandbox env -i PATH="$PATH" HOME=/tmp LANG=C.UTF-8 CARGO_TERM_COLOR=never \\
      timeout -k 5 {build_timeout_s} cargo build --release --offline) > "$C/build.log" 2>&1
  status=$?
  if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "cargo build --release --offline did not finish within {build_timeout_s} s" > "$C/build_error.txt"
  elif [ "$status" -ne 0 ]; then
    awk 'f || /^[ \\t]*error/ {{ f = 1 }} f' "$C/build.log" | head -n 40 > "$C/build_error.txt"
    [ -s "$C/build_error.txt" ] || echo "cargo build exited $status" > "$C/build_error.txt"
  elif [ ! -f "/tmp/build/$ENTRY_BINARY" ]; then
    echo "cargo build succeeded but made no $ENTRY_BINARY (the sample's entry point)" > "$C/build_error.txt"
  else
    mkdir -p "{WORKDIR}/$(dirname "$ENTRY_BINARY")"
    cp "/tmp/build/$ENTRY_BINARY" "{WORKDIR}/$ENTRY_BINARY" && chown -R 1000:1000 {WORKDIR}
  fi
  rm -rf /tmp/build
fi

if grep -q '"runnable": true' "$C/scan.json" && [ ! -s "$C/build_error.txt" ]; then
  (cd {WORKDIR} && as_sandbox sh -c "$(cat /tests/batch.sh)" {shlex.join(driver_args)} \\
      < /tests/batch.tar > "$C/records.bin" 2> "$C/driver.err")
fi
PY judge /check/task.json /check/scan.json /check/records.bin /check/out || {{ echo "judging failed"; exit 1; }}
cp "$C"/out/* "$OUT"/
"""
