"""Static cheat checks for Rust targets: a dependency-free Cargo project that calls no other program or library.

Flags (a flagged sample fails): any dependency table entry (`[dependencies]`, `[dev-dependencies]`,
`[build-dependencies]`, per-target and workspace ones), `[patch]` / `[replace]`, a build script
(`build.rs` beside a Cargo.toml, or `package.build`), `package.links`, a `.cargo/config*` (rustflags,
linker tricks), `extern` blocks and `#[link]`/`#[link_name]` (FFI to the source library),
`std::process::Command`, inline assembly, `include_bytes!`/`include_str!`/`include!` of a path outside the
repository (or one computed with `concat!`/`env!`), and string literals naming system paths (reading the
source library's files at run time). Comments are ignored; string contents are kept.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

__all__ = ["cargo_config_flag", "scan_cargo_toml", "scan_rust", "strip_rust_comments"]

_DEP_TABLES = ("dependencies", "dev-dependencies", "build-dependencies")
_EXTERN_BLOCK = re.compile(r"\bextern\s*(?:\"[^\"]*\"\s*)?\{")
_LINK_ATTR = re.compile(r"#\s*!?\s*\[\s*(link|link_name)\b")
_COMMAND = re.compile(r"\bprocess\s*::\s*(?:\{[^}]*\bCommand\b|Command\b)|\bCommand\s*::\s*new\b")
_ASM = re.compile(r"\b(?:asm|global_asm|naked_asm|llvm_asm)\s*!")
_INCLUDE = re.compile(r"\binclude(?:_bytes|_str)?\s*!\s*\(\s*(?:r#*)?(\"([^\"]*)\"|[^)]*)")
_DLOPEN = re.compile(r"\b(?:dlopen|libloading)\b")
_OUTSIDE_PATH = re.compile(
    r"\"(/(?:etc|usr|bin|sbin|lib|home|root|proc|sys|tmp|var|opt|srv|mnt|dev)(?:/[^\"\s]*)?)\""
)


def strip_rust_comments(source: str) -> str:
    """Remove `//` and (nested) `/* */` comments, keeping string and char literals intact."""
    out: list[str] = []
    i, n = 0, len(source)
    while i < n:
        ch = source[i]
        if ch == '"':
            end = i + 1
            while end < n and source[end] != '"':
                end += 2 if source[end] == "\\" else 1
            out.append(source[i : end + 1])
            i = end + 1
        elif ch == "'" and i + 2 < n and (source[i + 2] == "'" or source[i + 1] == "\\"):
            end = source.find("'", i + (3 if source[i + 1] == "\\" else 2))
            end = n if end < 0 else end
            out.append(source[i : end + 1])
            i = end + 1
        elif source.startswith("//", i):
            end = source.find("\n", i)
            i = n if end < 0 else end
        elif source.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if source.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif source.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _includes(code: str, root: Path, path: Path) -> list[str]:
    flags = []
    for match in _INCLUDE.finditer(code):
        literal = match.group(2)
        if literal is None:
            flags.append("outside_include:computed")
            continue
        resolved = (path.parent / literal).resolve()
        if literal.startswith("/") or not resolved.is_relative_to(root.resolve()):
            flags.append(f"outside_include:{literal}")
    return flags


def scan_rust(root: Path, path: Path, text: str) -> list[str]:
    """Flags for one `.rs` file of the target at `root`."""
    code = strip_rust_comments(text)
    flags = []
    if _EXTERN_BLOCK.search(code):
        flags.append("ffi_extern_block")
    flags += [f"ffi_{m.group(1)}" for m in _LINK_ATTR.finditer(code)]
    if _COMMAND.search(code):
        flags.append("process_command")
    if _ASM.search(code):
        flags.append("inline_asm")
    if _DLOPEN.search(code):
        flags.append("ffi_dlopen")
    flags += _includes(code, root, path)
    flags += [f"outside_path:{m.group(1)}" for m in _OUTSIDE_PATH.finditer(code)]
    return flags


def _dep_flags(table: dict[str, Any], where: str) -> list[str]:
    return [f"external_dependency:{where}{name}" for name in _DEP_TABLES if table.get(name)]


def scan_cargo_toml(root: Path, path: Path) -> list[str]:
    """Flags for one Cargo.toml: dependencies of any kind, patches, build scripts, native links."""
    rel = path.relative_to(root).as_posix()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8", errors="replace"))
    except tomllib.TOMLDecodeError:
        return []  # cargo rejects it: the build fails, nothing to flag
    flags = _dep_flags(data, "")
    for name, table in (data.get("target") or {}).items():
        if isinstance(table, dict):
            flags += _dep_flags(table, f"target.{name}.")
    workspace = data.get("workspace")
    if isinstance(workspace, dict) and workspace.get("dependencies"):
        flags.append("external_dependency:workspace.dependencies")
    flags += [f"cargo_{key}:{rel}" for key in ("patch", "replace") if data.get(key)]
    package = data.get("package")
    if isinstance(package, dict):
        if package.get("build") not in (None, False):
            flags.append(f"build_script:{rel}")
        if package.get("links"):
            flags.append(f"ffi_links:{rel}")
    if (path.parent / "build.rs").is_file():
        flags.append(f"build_script:{(path.parent / 'build.rs').relative_to(root).as_posix()}")
    return flags


def cargo_config_flag(root: Path, path: Path) -> list[str]:
    """A `.cargo/config` or `.cargo/config.toml` anywhere in the tree (cargo reads them from the cwd up)."""
    if path.parent.name == ".cargo" and path.name in ("config", "config.toml"):
        return [f"cargo_config:{path.relative_to(root).as_posix()}"]
    return []
