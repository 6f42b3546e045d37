"""Static cheat checks on a target repository: the rules are enforced by the grader, not just prompted.

A target must use no external packages and call no other program. Static flags (this module, and
`rust_cheats` for Cargo projects) catch what is written down; the runtime side (Node's permission model, no other interpreter in the sandbox) catches
what is computed at run time and is read back from the run by `runtime_flags`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from repozero.oracle.rust_cheats import cargo_config_flag, scan_cargo_toml, scan_rust

__all__ = ["NODE_BUILTINS", "runtime_flags", "scan_target", "strip_js_comments"]

NODE_BUILTINS = frozenset(
    "assert async_hooks buffer child_process cluster console constants crypto dgram diagnostics_channel dns "
    "domain events fs http http2 https inspector module net os path perf_hooks process punycode querystring "
    "readline repl sqlite stream string_decoder sys test timers tls trace_events tty url util v8 vm wasi "
    "worker_threads zlib".split()
)
_FORBIDDEN_BUILTINS = {
    "child_process": "child_process",
    "worker_threads": "worker_threads",
    "cluster": "cluster",
}
_JS_SUFFIXES = {".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts"}
_LOCKFILES = {
    "package-lock.json",
    "npm-shrinkwrap.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "bun.lockb",
    "bun.lock",
}
_DEP_KEYS = (
    "dependencies",
    "devDependencies",
    "optionalDependencies",
    "peerDependencies",
    "bundledDependencies",
)
_SPECIFIER = re.compile(
    r"""\b(?:import|export)\s+(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"\n]+)['"]"""
    r"""|\bimport\s*\(\s*['"]([^'"\n]+)['"]\s*\)"""
    r"""|\brequire\s*\(\s*['"]([^'"\n]+)['"]\s*\)"""
)
_PROCESS_HOOKS = re.compile(r"""\bprocess\s*(?:\.\s*|\[\s*['"])(binding|_linkedBinding|dlopen)\b""")
_OUTSIDE_PATH = re.compile(
    r"""['"`](/(?:etc|usr|bin|sbin|lib|home|root|proc|sys|tmp|var|opt|srv|mnt|work|dev)(?:/[^'"`\s]*)?)['"`]"""
)
_MAX_FILE = 2 << 20


def strip_js_comments(source: str) -> str:
    """Remove // and /* */ comments, keeping string and template literals intact."""
    out: list[str] = []
    i, n = 0, len(source)
    quote = ""
    while i < n:
        ch = source[i]
        if quote:
            out.append(ch)
            if ch == "\\" and i + 1 < n:
                out.append(source[i + 1])
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "'\"`":
            quote = ch
            out.append(ch)
        elif source.startswith("//", i):
            end = source.find("\n", i)
            i = n if end < 0 else end
            continue
        elif source.startswith("/*", i):
            end = source.find("*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def _module_flags(specifier: str) -> list[str]:
    if specifier.startswith((".", "/")):
        return []
    name = specifier.removeprefix("node:").split("/")[0]
    if name in _FORBIDDEN_BUILTINS:
        return [_FORBIDDEN_BUILTINS[name]]
    if specifier.startswith("node:") or name in NODE_BUILTINS:
        return []
    return [f"non_builtin_import:{specifier}"]


def _scan_js(text: str) -> list[str]:
    code = strip_js_comments(text)
    flags: list[str] = []
    for match in _SPECIFIER.finditer(code):
        flags += _module_flags(next(g for g in match.groups() if g))
    flags += [f"process_{m.group(1).lstrip('_')}" for m in _PROCESS_HOOKS.finditer(code)]
    flags += [f"outside_path:{m.group(1)}" for m in _OUTSIDE_PATH.finditer(code)]
    return flags


def _scan_package_json(path: Path) -> list[str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, OSError):
        return []
    if not isinstance(data, dict):
        return []
    return [f"external_dependency:{key}" for key in _DEP_KEYS if data.get(key)]


def _scan_file(root: Path, path: Path) -> list[str]:
    rel = path.relative_to(root).as_posix()
    if path.name in _LOCKFILES:
        return [f"lockfile:{rel}"]
    if path.name == "package.json":
        return _scan_package_json(path)
    if path.name == "Cargo.toml":
        return scan_cargo_toml(root, path)
    if path.parent.name == ".cargo":
        return cargo_config_flag(root, path)
    if path.stat().st_size > _MAX_FILE:
        return []
    if path.suffix in _JS_SUFFIXES:
        return _scan_js(path.read_text(encoding="utf-8", errors="replace"))
    if path.suffix == ".rs":
        return scan_rust(root, path, path.read_text(encoding="utf-8", errors="replace"))
    return []


def scan_target(root: Path) -> list[str]:
    """Sorted, de-duplicated cheat flags for the target repository at `root`.

    A Cargo project's `target/` (build output, rebuilt by the grader from the sources) is not scanned.
    """
    flags: set[str] = set()
    cargo = (root / "Cargo.toml").is_file()
    for path in root.rglob("*"):
        rel_parts = path.relative_to(root).parts
        if cargo and rel_parts[0] == "target":
            continue
        if path.is_symlink():
            target = path.resolve()
            if not target.is_relative_to(root.resolve()):
                flags.add(f"outside_symlink:{path.relative_to(root).as_posix()}")
            continue
        if path.is_dir():
            if path.name in {"node_modules", "vendor"} and len(rel_parts) >= 1:
                flags.add(f"{path.name}:{'/'.join(rel_parts)}")
            continue
        if "node_modules" in rel_parts or ".git" in rel_parts:
            continue
        flags.update(_scan_file(root, path))
    return sorted(flags)


_DENIED = re.compile(rb"ERR_ACCESS_DENIED[\s\S]{0,400}?permission:\s*'(\w+)'")


def runtime_flags(stderr: bytes) -> list[str]:
    """Flags from Node's permission model: an attempt the runtime refused is a cheat attempt."""
    return sorted({f"runtime_denied:{m.group(1).decode()}" for m in _DENIED.finditer(stderr)})
