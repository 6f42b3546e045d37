"""Lines of a C/C++ library a test program reaches over its cases, by gcov — the measure c2rust-lite's
difficulty rule uses, for `dataset generate --debian-package`.

The program is compiled once more with `--coverage -O0` beside the Oracle's own build (same compiler,
flags otherwise and libraries), its cases run where the Oracle runs programs (in its sandbox when it has
one: `covrun.py`), and the .gcda files they wrote come back to the host, where gcov reads them. What counts
is the library's own lines: those of the package's installed headers (a header-only C++ library's whole
code; a C library linked as a shared object shows only its inline functions and macros, so its measure is
small — c2rust-lite compiled such libraries' sources in, which a Debian binary package does not carry).
"""

from __future__ import annotations

import base64
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import anyio

from repozero.kernel.errors import OracleError
from repozero.oracle.native_env import LocalNativeEnvironment, SandboxedNativeEnvironment, build_key
from repozero.oracle.nativeprobe import compile_argv, header_files
from repozero.oracle.records import CaseInput, ProgramRef

__all__ = ["COVRUN", "coverage_lines"]

COVRUN = Path(__file__).with_name("covrun.py")
_CASE_TIMEOUT_S = 10.0


async def coverage_lines(env: LocalNativeEnvironment, program: ProgramRef, cases: list[CaseInput]) -> int:
    """Distinct lines of the environment's packages' headers executed over `cases` (OracleError if the
    measurement itself fails; a program that fails on a case only reaches fewer lines)."""
    build = await _coverage_build(env, program)
    payload = json.dumps([
        {"argv": c.argv, "stdin_b64": base64.b64encode(c.stdin).decode() if c.stdin else None} for c in cases
    ]).encode()  # fmt: skip
    prefix = f"/tmp/repozero-cov-{secrets.token_hex(8)}"  # fresh: counts from no other program or run
    argv = [str(build / "exe"), prefix, str(_CASE_TIMEOUT_S)]
    timeout = 60 + _CASE_TIMEOUT_S * len(cases)
    if isinstance(env, SandboxedNativeEnvironment) and await env._provider.sandboxed():
        box = await env._sandbox()
        result = await box.exec(["python3", "-I", str(COVRUN), *argv], stdin=payload, timeout_s=timeout,
                                output_cap=256 << 20)  # fmt: skip
        code, out, err = result.exit_code, result.stdout, result.stderr
    else:
        done = await anyio.run_process([sys.executable, "-I", str(COVRUN), *argv], input=payload, check=False)
        code, out, err = done.returncode, done.stdout, done.stderr
    if code != 0:
        raise OracleError(f"coverage run of {program.path} failed (exit {code}): {err[-500:]!r}")
    gcdas = {path: base64.b64decode(data) for path, data in json.loads(out).items()}
    return await anyio.to_thread.run_sync(_count, build, gcdas, _headers(env))


def _headers(env: LocalNativeEnvironment) -> set[str]:
    names = [p.split("=")[0] for p in env.spec.requirements]
    return {os.path.realpath(f) for f in header_files(names)}


async def _coverage_build(env: LocalNativeEnvironment, program: ProgramRef) -> Path:
    """`<builds>/cov-<key>/exe`, compiled once; compiled in place (gcov data names its absolute paths)."""
    fingerprint = await env.prepare()
    build = env.builds / f"cov-{build_key(fingerprint, program)}"
    async with env._compiling:
        if (build / "exe").is_file():
            return build
        shutil.rmtree(build, ignore_errors=True)
        shutil.copytree(program.dir, build / "src", symlinks=True)
        argv = compile_argv(env.spec.language, str(build / "src" / program.path), str(build / "exe.tmp"),
                            list(env.spec.requirements))  # fmt: skip
        argv = [a for a in argv if a != "-O2"] + ["-O0", "--coverage"]
        done = await anyio.run_process(argv, cwd=build / "src", check=False)
        if done.returncode != 0:
            raise OracleError(f"{program.path}: the coverage build failed: {done.stderr.decode()[-500:]}")
        for path in [build, *build.rglob("*")]:
            os.chmod(path, 0o755 if path.is_dir() or path.name == "exe.tmp" else 0o644)
        os.rename(build / "exe.tmp", build / "exe")
    return build


def _count(build: Path, gcdas: dict[str, bytes], headers: set[str]) -> int:
    """(file, line) pairs with a non-zero count in the package's headers, read by gcov from the data."""
    if not gcdas:
        return 0
    with tempfile.TemporaryDirectory(prefix="repozero-gcov-") as tmp:
        names = []
        for path, data in gcdas.items():
            gcno = Path(path).with_suffix(".gcno")
            if not gcno.is_file():
                continue
            shutil.copy(gcno, Path(tmp) / gcno.name)
            (Path(tmp) / Path(path).name).write_bytes(data)
            names.append(Path(path).name)
        done = subprocess.run(
            ["gcov", "--json-format", "--stdout", *names], cwd=tmp, capture_output=True, check=False
        )
    if done.returncode != 0:
        raise OracleError(f"gcov failed: {done.stderr.decode(errors='replace')[-500:]}")
    hit: set[tuple[str, int]] = set()
    for chunk in done.stdout.decode().splitlines():
        if not chunk.strip():
            continue
        for entry in json.loads(chunk)["files"]:
            name = os.path.realpath(
                entry["file"] if os.path.isabs(entry["file"]) else build / "src" / entry["file"]
            )
            if name in headers:
                hit.update((name, line["line_number"]) for line in entry["lines"] if line["count"] > 0)
    return len(hit)
