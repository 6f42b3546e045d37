"""C/C++ libraries (`--debian-package`): the headers the writer is shown, and the static checks of a C or
C++ test program (includes, network, process and file access, library calls) before the Oracle compiles it.

The environment is the machine's compiler plus the Debian packages (docs/c2rust.md): nothing is installed
on the fly, so the package must be there (`scripts/setup.d/05-c2rust.sh` installs the ones tests use).
"""

from __future__ import annotations

import re

import anyio

from repozero.kernel.errors import UsageError
from repozero.orchestrator.generate.static import StaticVerdict

__all__ = ["HeaderListing", "check_native", "declared_names", "list_headers"]

_HEADER = re.compile(r"\.(h|hh|hpp|hxx)$|/include/c\+\+/")
_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.MULTILINE)
_CALLED = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
_NETWORK = re.compile(r"^(sys/socket\.h|netinet/|arpa/|netdb\.h|sys/un\.h|curl/|ifaddrs\.h|net/)")
_ESCAPES = frozenset({"system", "popen", "execl", "execlp", "execle", "execv", "execvp", "execve", "fork",
                      "vfork", "posix_spawn", "dlopen", "chdir", "remove", "unlink", "rename", "opendir"})  # fmt: skip
_FILE_CALLS = frozenset({"fopen", "open", "freopen", "ifstream", "ofstream", "fstream"})
_KEYWORDS = frozenset({"if", "for", "while", "switch", "return", "sizeof", "defined", "typedef", "struct",
                       "union", "enum", "extern", "static", "inline", "const", "void", "int", "char"})  # fmt: skip


class HeaderListing:
    """The library's headers (their include paths and text) and the function names they declare."""

    def __init__(self, includes: list[str], text: str, names: list[str]) -> None:
        self.includes = includes
        self.text = text
        self.names = names


_TYPE_END = re.compile(r"(?:[\w>]|\b[A-Z][A-Z0-9_]*\s*\([^()]*\))(?:\s*[*&]+)?\s*$")
"""What ends the text before a declared name: a type (`int`, `T*`, `std::string&`, `vector<T>`), or an
export macro wrapping one (`CJSON_PUBLIC(cJSON *)`)."""
_LIBC = frozenset({"malloc", "calloc", "realloc", "free", "memcpy", "memmove", "memset", "memcmp", "strlen",
                   "strcmp", "strncmp", "strcpy", "abort", "assert", "printf", "fprintf", "snprintf"})  # fmt: skip
"""The C library's own functions, which a header may declare for itself (freestanding builds)."""
_NOT_TYPES = frozenset({"return", "else", "new", "delete", "throw", "case", "goto", "do", "sizeof", "typeid",
                        "co_return", "co_yield", "operator", "and", "or", "not"})  # fmt: skip
_CLASSES = re.compile(r"\b(?:class|struct)\s+(?:\w+\s+)*?([A-Za-z_]\w*)\s*(?:final\s*)?[:{<]")
_MACROS = re.compile(r"^\s*#\s*define\s+([A-Za-z_]\w*)\(", re.MULTILINE)


def declared_names(code: str) -> set[str]:
    """The functions, function-like macros and classes a header declares — not every name it calls: a
    header's own `memcpy(…)` or `std::begin(…)` is not the library's API, and `XXH32` (capitals) is."""
    names = set(_MACROS.findall(code)) | set(_CLASSES.findall(code))
    for found in _CALLED.finditer(code):
        name = found.group(1)
        if name in _KEYWORDS or name in _NOT_TYPES or name in _LIBC:
            continue
        before = code[max(0, found.start() - 200) : found.start()]
        typed = _TYPE_END.search(before)
        if typed is None:
            continue
        word = re.search(r"(\w+)(?:\s*[*&]+)?\s*$", before)
        if word is not None and word.group(1) in _NOT_TYPES:
            continue
        names.add(name)
    return names


async def list_headers(package: str, limit: int = 20000) -> HeaderListing:
    """Read the headers a Debian package installed; UsageError when the package is not installed."""
    name = package.split("=")[0]
    done = await anyio.run_process(["dpkg", "-L", name], check=False)
    if done.returncode != 0:
        raise UsageError(f"--debian-package {package}: not installed here (apt-get install {name})")
    paths = sorted(p for p in done.stdout.decode().splitlines() if _HEADER.search(p) and "/include/" in p)
    paths = [p for p in paths if await anyio.Path(p).is_file()]
    if not paths:
        raise UsageError(f"--debian-package {package}: installs no header under /include/")
    texts = [await anyio.Path(p).read_text(errors="replace") for p in paths]
    includes = [p.split("/include/", 1)[1] for p in paths]
    code = [_COMMENTS.sub(" ", t) for t in texts]
    names = sorted({n for t in code for n in declared_names(t)})
    body = "\n\n".join(f"// ---- {i}\n{t}" for i, t in zip(includes, texts, strict=True))
    return HeaderListing(includes, body[:limit], names)


_STANDARD = frozenset(
    """assert.h complex.h ctype.h errno.h fenv.h float.h inttypes.h iso646.h limits.h locale.h math.h
    setjmp.h signal.h stdalign.h stdarg.h stdatomic.h stdbool.h stddef.h stdint.h stdio.h stdlib.h
    stdnoreturn.h string.h tgmath.h threads.h time.h uchar.h wchar.h wctype.h unistd.h strings.h
    algorithm any array atomic bitset cassert cctype cerrno cfloat charconv chrono cinttypes climits clocale
    cmath complex cstdarg cstddef cstdint cstdio cstdlib cstring ctime cwchar deque exception fstream
    functional initializer_list iomanip ios iosfwd iostream istream iterator limits list map memory
    numeric optional ostream queue random ratio regex set sstream stack stdexcept string string_view
    system_error tuple type_traits typeinfo unordered_map unordered_set utility valarray variant vector
    """.split()
)
"""C and C++ standard headers (and POSIX unistd/strings) a test program may include."""


def check_native(
    text: str, includes: list[str], names: list[str], api_calls: tuple[int, int]
) -> StaticVerdict:
    """The first rule a C/C++ program breaks, with the line, and the library functions it calls."""
    own = set(includes) | {i.rsplit("/", 1)[-1] for i in includes}
    for number, line in enumerate(text.splitlines(), start=1):
        found = _INCLUDE.match(line)
        if found is None:
            continue
        header = found.group(1)
        if _NETWORK.match(header):
            return StaticVerdict(reason="network_access", detail=f"line {number}: #include <{header}>")
        if header not in own and header not in _STANDARD:
            return StaticVerdict(reason="forbidden_import", detail=f"line {number}: #include <{header}>")
    # comments, string and character literals (a `'"'` must not open a string that hides what follows)
    code = re.sub(r"//[^\n]*|/\*.*?\*/|\"(\\.|[^\"\\])*\"|'(\\.|[^'\\])'", " ", text, flags=re.DOTALL)
    called = set(_CALLED.findall(code))
    escapes = sorted(called & _ESCAPES)
    if escapes:
        return StaticVerdict(reason="outside_files", detail=f"calls {escapes[0]}()")
    for call in re.finditer(r"\b(\w+)\s*\(\s*\"([^\"]*)\"", text):
        if call.group(1) in _FILE_CALLS and (
            call.group(2).startswith("/") or ".." in call.group(2).split("/")
        ):
            return StaticVerdict(reason="outside_files", detail=f"{call.group(1)}({call.group(2)!r})")
    calls = sorted(called & set(names))
    low, high = api_calls
    if not low <= len(calls) <= high:
        detail = (
            f"calls {len(calls)} library functions ({', '.join(calls) or 'none'}); asked for {low}..{high}"
        )
        return StaticVerdict(reason="api_calls_out_of_range", detail=detail, calls=calls)
    return StaticVerdict(reason=None, calls=calls)
