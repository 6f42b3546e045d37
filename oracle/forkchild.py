"""What a fork server's child does to become the test program, and how the server warms up (stdlib only).

Loaded by `forkserver.py` under a private module name, in the source environment's interpreter. The child
must look like a fresh `python SCRIPT ARGV...` started in the scratch copy: new session, fds 0-2 wired to
the case's stdin and the server's pipes, argv and sys.path as CPython sets them, new std streams made as
CPython makes them, the script run as `__main__`, and the same exit: SystemExit codes, a traceback and
exit 1 for an uncaught exception, death by SIGINT for KeyboardInterrupt, exit 120 when flushing stdout
fails. Everything that can be computed once per program is computed by the server before forking
(copy-on-write makes every page a child touches cost a fault), so a child does little but run.
"""

from __future__ import annotations

import atexit
import builtins
import io
import json
import os
import signal
import sys
import types

TYPE_CHECKING = False
if TYPE_CHECKING:  # no `typing` at run time (start-up cost for every server)
    from typing import Any

__all__ = ["become", "clean_imports", "local_names", "quiet_import", "scan_imports"]

_SETUP_FAILED = 125
_KEEP: list[Any] = []
_RECORD: tuple[str, frozenset[str]] | None = None


def become(
    program: Any, argv: list[str], stdin: bytes | None, out_w: int, err_w: int, close: list[int], record: str
) -> None:
    """(In the forked child.) Turn into the program and run it; never returns.

    With `record` set, the names of the modules the run imported are written there at exit, so the server
    can import them too (imports made lazily, inside functions, escape the scan of import statements).
    """
    global _RECORD
    try:
        os.setsid()
        for fd in close:
            os.close(fd)
        _wire_fds(stdin, out_w, err_w)
        os.chdir(program.work)
        sys.argv = [program.path, *argv]
        sys.path.insert(0, program.script_dir)
        for key in program.forget:  # modules the script's folder shadows: a fresh interpreter never saw them
            sys.modules.pop(key, None)
        _RECORD = (record, frozenset(sys.modules)) if record else None
        _fresh_stdio()
    except BaseException as exc:
        os.write(2, f"forkserver: could not set up the run: {exc!r}\n".encode())
        os._exit(_SETUP_FAILED)
    _run_as_main(program)


def _wire_fds(stdin: bytes | None, out_w: int, err_w: int) -> None:
    if stdin is None:
        fd = os.open(os.devnull, os.O_RDONLY)
    else:
        fd = os.memfd_create("stdin")
        data = memoryview(stdin)
        while data:
            data = data[os.write(fd, data) :]
        os.lseek(fd, 0, os.SEEK_SET)
    for source, target in ((fd, 0), (out_w, 1), (err_w, 2)):
        os.dup2(source, target)
        os.close(source)


def _fresh_stdio() -> None:
    """New stdin/stdout/stderr objects on fds 0-2, made as CPython makes them at start-up."""
    for name, fd, mode in (("stdin", 0, "rb"), ("stdout", 1, "wb"), ("stderr", 2, "wb")):
        old = getattr(sys, name)
        _KEEP.append(old)  # never finalised: its (empty) buffer must not be flushed into the new pipes
        buffered = open(fd, mode, buffering=-1, closefd=False)
        buffered.raw.name = f"<{name}>"  # type: ignore[attr-defined]
        stream = io.TextIOWrapper(
            buffered,
            encoding=old.encoding,
            errors=old.errors,
            newline="\n",
            line_buffering=old.line_buffering,
            write_through=getattr(old, "write_through", False),
        )
        stream.mode = mode[0]  # type: ignore[misc]
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def _run_as_main(program: Any) -> None:
    """Run the program as `__main__`, then leave as a fresh interpreter would (same exit code, same output)."""
    if program.source is None:
        print(f"{sys.executable}: can't open file {program.script!r}: {program.missing}", file=sys.stderr)
        _finish(2, None)
    main = types.ModuleType("__main__")
    main.__file__ = program.script
    main.__builtins__ = builtins  # type: ignore[attr-defined]
    main.__cached__ = None  # type: ignore[attr-defined]
    sys.modules["__main__"] = main
    try:
        code = program.code or compile(program.source, program.script, "exec", dont_inherit=True)
        exec(code, main.__dict__)
        status = 0
    except SystemExit as exc:
        status = _system_exit_code(exc)
    except BaseException as exc:
        if exc.__traceback__ is not None:
            exc.__traceback__ = exc.__traceback__.tb_next  # start at the program's frame, as CPython does
        sys.excepthook(type(exc), exc, exc.__traceback__)
        status = -signal.SIGINT if isinstance(exc, KeyboardInterrupt) else 1
    _finish(status, main)


def _system_exit_code(exc: SystemExit) -> int:
    """What CPython exits with for an uncaught SystemExit (printing a non-integer code to stderr)."""
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code & 0xFF
    try:
        print(exc.code, file=sys.stderr)
    except BaseException:
        pass
    return 1


def _finish(status: int, main: types.ModuleType | None) -> None:
    """Interpreter shutdown, minus the part that costs ~15 ms after a fork (tearing down every object).

    Joins non-daemon threads, runs atexit handlers, flushes the std streams (a failed stdout flush exits
    120, as CPython does) and any file object bound to a name in `__main__`, then leaves with `os._exit`.
    Not reproduced: output from `__del__` methods and unreferenced buffered files at teardown.
    """
    threading = sys.modules.get("threading")
    try:
        if threading is not None:
            threading._shutdown()  # type: ignore[attr-defined]
    except BaseException:
        pass
    try:
        atexit._run_exitfuncs()
    except BaseException:
        pass
    for value in list(vars(main).values()) if main is not None else []:
        if isinstance(value, io.IOBase) and value not in (sys.stdout, sys.stderr):
            _flush(value)
    if not _flush(sys.stdout) and status == 0:
        status = 120
    _flush(sys.stderr)
    if _RECORD is not None:
        _record_imports(*_RECORD)
    if status < 0:  # KeyboardInterrupt: die of SIGINT, as CPython does
        signal.signal(-status, signal.SIG_DFL)
        os.kill(os.getpid(), -status)
    os._exit(status)


def _record_imports(path: str, before: frozenset[str]) -> None:
    try:
        with open(path, "w") as handle:
            json.dump(
                [name for name in list(sys.modules) if name not in before and name != "__main__"], handle
            )
    except BaseException:
        pass


def _flush(stream: Any) -> bool:
    try:
        if stream is not None and not stream.closed:
            stream.flush()
        return True
    except BaseException:
        return False


# --------------------------------------------------------------------------------------------- warming


def scan_imports(folder: str) -> list[str]:
    """Absolute module names imported anywhere in the program's Python files, in first-seen order."""
    import ast  # only when warming up for a new program

    names: dict[str, None] = {}
    for base, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for file in sorted(f for f in files if f.endswith(".py")):
            try:
                with open(os.path.join(base, file), "rb") as handle:
                    tree = ast.parse(handle.read())
            except (SyntaxError, ValueError, OSError):
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    names.update((alias.name, None) for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    names[node.module] = None
    names.pop("__future__", None)
    return list(names)


def local_names(folder: str) -> set[str]:
    """Top-level module names the script's own folder provides (they shadow installed ones)."""
    try:
        entries = os.listdir(folder)
    except OSError:
        return set()
    names = {e[:-3] for e in entries if e.endswith(".py")}
    names.update(e for e in entries if os.path.isdir(os.path.join(folder, e)))
    return names


def clean_imports(names: list[str], sink_path: str, out: int) -> None:
    """(In a probe child.) Import each name with fds 1 and 2 on a file; write those that printed nothing.

    A module that starts a thread is left out too: forking a multi-threaded server is unsafe.
    """
    sink = os.open(sink_path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
    os.unlink(sink_path)
    os.dup2(sink, 1)
    os.dup2(sink, 2)
    clean = []
    for name in names:
        before = os.fstat(sink).st_size
        try:
            __import__(name)
            ok = True
        except BaseException:
            ok = False
        _flush_std()
        if ok and os.fstat(sink).st_size == before and _threads() == 1:  # a server must stay single-threaded
            clean.append(name)
    os.write(out, json.dumps(clean).encode())


def _threads() -> int:
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 1


def quiet_import(name: str) -> None:
    """Import in the server with stderr silenced (stdout is /dev/null there already); failures ignored."""
    saved = os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 2)
    try:
        __import__(name)
    except BaseException:
        pass
    finally:
        _flush_std()
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


def _flush_std() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            pass
