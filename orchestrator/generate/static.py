"""Static checks on a written test program, before anything runs: it parses, it imports only the package and
the standard library, it opens no network and no file outside its folder, and it calls enough of the API.

Reading the clock or randomness is left to the Oracle's filter, which drops what it makes nondeterministic.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable

from repozero.kernel.records import Record

__all__ = ["NETWORK_MODULES", "StaticVerdict", "check_program"]

NETWORK_MODULES = frozenset(
    {
        "socket", "ssl", "http", "urllib", "ftplib", "smtplib", "poplib", "imaplib", "nntplib", "telnetlib",
        "xmlrpc", "socketserver", "asyncio", "selectors", "webbrowser", "wsgiref", "mailbox", "smtpd",
    }
)  # fmt: skip
"""Standard-library modules that reach the network (urllib.parse alone is allowed)."""
_ESCAPES = frozenset({"subprocess", "ctypes", "multiprocessing", "pty", "shutil", "tempfile", "glob"})
"""Standard-library modules that run other programs or roam the file system: rejected as outside access."""
_FILE_CALLS = frozenset(
    {"open", "Path", "PurePath", "listdir", "scandir", "chdir", "remove", "unlink", "walk"}
)


class StaticVerdict(Record, kw_only=True):
    reason: str | None
    detail: str = ""
    calls: list[str] = []


def check_program(text: str, package_modules: Iterable[str], api_calls: tuple[int, int]) -> StaticVerdict:
    """The first rule the program breaks (with the line), and the package APIs it calls."""
    try:
        tree = ast.parse(text)
    except SyntaxError as exc:
        return StaticVerdict(reason="syntax_error", detail=f"line {exc.lineno}: {exc.msg}")
    own = set(package_modules)
    for node in ast.walk(tree):
        verdict = _import_verdict(node, own) or _file_verdict(node)
        if verdict is not None:
            return verdict
    calls = sorted(_api_calls(tree, own))
    low, high = api_calls
    if not low <= len(calls) <= high:
        detail = f"calls {len(calls)} APIs ({', '.join(calls) or 'none'}); asked for {low}..{high}"
        return StaticVerdict(reason="api_calls_out_of_range", detail=detail, calls=calls)
    return StaticVerdict(reason=None, calls=calls)


def _imported(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        return [node.module]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute):
        name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
        if name in ("__import__", "import_module") and node.args and isinstance(node.args[0], ast.Constant):
            return [str(node.args[0].value)]
    return []


def _import_verdict(node: ast.AST, own: set[str]) -> StaticVerdict | None:
    for name in _imported(node):
        top = name.split(".")[0]
        line = f"line {getattr(node, 'lineno', '?')}: import {name}"
        if top in own:
            continue
        if top in NETWORK_MODULES and name != "urllib.parse":
            return StaticVerdict(reason="network_access", detail=line)
        if top in _ESCAPES:
            return StaticVerdict(reason="outside_files", detail=line)
        if top not in sys.stdlib_module_names:
            return StaticVerdict(reason="forbidden_import", detail=f"{line} (neither the package nor stdlib)")
    return None


def _file_verdict(node: ast.AST) -> StaticVerdict | None:
    """A file call on a literal absolute path or one that climbs out (`..`): outside the program's folder."""
    if not isinstance(node, ast.Call):
        return None
    name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
    if name not in _FILE_CALLS:
        return None
    for arg in node.args:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            path = arg.value
            if path.startswith(("/", "~")) or ".." in path.split("/"):
                return StaticVerdict(reason="outside_files", detail=f"line {node.lineno}: {name}({path!r})")
    return None


def _api_calls(tree: ast.Module, own: set[str]) -> set[str]:
    """The package's functions and classes the program calls: `module.name(...)` through a name bound to
    the package, or `name(...)` imported from it (caught exceptions and methods on results do not count)."""
    modules: dict[str, str] = {}
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in own:
                    modules[alias.asname or alias.name.split(".")[0]] = (
                        alias.name if alias.asname else alias.name.split(".")[0]
                    )
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in own:
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    found: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in modules:
            found.add(f"{modules[func.value.id]}.{func.attr}")
        elif isinstance(func, ast.Name) and func.id in names:
            found.add(names[func.id])
    return found
