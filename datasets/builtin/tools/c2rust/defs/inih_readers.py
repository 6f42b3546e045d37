"""inih-readers: ini_parse_string, ini_parse_file and ini_parse_stream with a chunked reader (inih r55,
Debian libinih-dev 55-1), and a handler that refuses entries."""

from ckit import SHELL_METAS, CSampleDef, arg, c

CONF = "[db]\nuser = admin\npassword = secret ; hidden\n[cache]\nsize: 64\n"
LONG = "[l]\nkey=" + "0123456789" * 30 + "\nnext=1\n"
FILE = ("--mode", "file")
STREAM = ("--mode", "stream")

CASES = [
    c(stdin=CONF, desc="basic: string mode"),
    c(*FILE, "--reject", "password", stdin=CONF, desc="basic: file mode, a rejected entry"),
    c(*STREAM, "--chunk", "6", stdin=CONF, desc="basic: stream mode in 6-byte pieces"),
    c(
        *STREAM,
        "--chunk",
        "100",
        "--reject",
        "size",
        stdin=CONF,
        desc="basic: stream, large chunks, a rejection",
    ),
    c(stdin="", desc="empty input"),
    c(*FILE, stdin="", desc="empty input, file mode"),
    c(*STREAM, stdin="", desc="empty input, stream mode"),
    c(stdin=LONG, desc="string mode reads a 305-byte line in 199-byte pieces"),
    c(*FILE, stdin=LONG, desc="so does fgets"),
    c(*STREAM, "--chunk", "500", stdin=LONG, desc="a reader never gets more than 199 bytes to fill"),
    c(*STREAM, "--chunk", "199", stdin=LONG, desc="chunk 199"),
    c(*STREAM, "--chunk", "1", stdin="a=1\nb=2\n", desc="one byte at a time: every byte a line"),
    c(*STREAM, "--chunk", "3", stdin="[s]\nab=1\nc=22\n", desc="pieces that split names and values"),
    c(stdin="a=1\n\0b=2\nc=3\n", desc="string mode stops at a NUL"),
    c(*FILE, stdin="a=1\n\0b=2\nc=3\n", desc="fgets reads past a NUL: only that line is cut"),
    c(*STREAM, stdin="a=1\nx\0=2\nc=3\n", desc="the stream reader too"),
    c(
        "--reject",
        "k",
        stdin="[s]\nk=1\nk=2\n  more\n",
        desc="every call of the rejected name fails; the first error counts",
    ),
    c("--reject", "", stdin="=empty\nk=v\n", desc="an empty name can be rejected"),
    c("--reject", "x", stdin="bad\nx=1\n", desc="a syntax error before the rejection wins"),
    c(*FILE, stdin="\ufeff[bom]\nk=v\n", desc="BOM in file mode"),
    c(*STREAM, "--chunk", "2", stdin="\ufeff[bom]\nk=v\n", desc="a BOM split across pieces is not skipped"),
    c(*FILE, stdin="[a]\r\nk = v\r\n  cont\r\n", desc="CRLF and a continuation"),
    c(*STREAM, "--chunk", "4", stdin="[u]\nключ=значение\n", desc="Unicode split mid-character"),
    c(stdin="n=-5\nm=-0.25\n", desc="negative numbers are text"),
    c(*STREAM, "--chunk", " 7", stdin=CONF, desc="strtol skips leading spaces"),
    c(*STREAM, "--chunk", "+9", stdin=CONF, desc="and takes a plus sign"),
    c("--chunk", "0", stdin=CONF, desc="error: chunk 0"),
    c("--chunk", "-3", stdin=CONF, desc="error: a negative chunk"),
    c("--chunk", "12x", stdin=CONF, desc="error: trailing garbage"),
    c("--chunk", "", stdin=CONF, desc="error: empty chunk"),
    c("--chunk", "99999999999999999999999", stdin=CONF, desc="error: huge chunk"),
    c("--mode", "mmap", stdin=CONF, desc="error: unknown mode"),
    c(*FILE, stdin="".join(f"[s{i}]\nk = {i}\n" for i in range(800)), desc="huge: 800 sections"),
    *[
        c("--reject", s, stdin=f"{s}=1\nk=2\n", desc="shell metacharacters as a rejected name")
        for s in SHELL_METAS[:3]
    ],
    c("--mode", "file", "--mode", "string", stdin="a=1\n\0b=2\n", desc="a repeated name: the last wins"),
    c("--verbose", "1", stdin=CONF, desc="usage error (exit 2): unknown name, dropped by the Oracle"),
]

SAMPLE = CSampleDef(
    id="inih-readers",
    package="libinih-dev",
    language="c",
    program="inih_readers.c",
    category="parsing/serialization",
    api=["ini_parse_string", "ini_parse_file", "ini_parse_stream"],
    args=[
        arg("mode", "str", "string (default), file or stream"),
        arg("chunk", "str", "stream mode: at most this many bytes per reader call (1-1000, default 16)"),
        arg("reject", "str", "the handler refuses entries with this name"),
    ],
    stdin="required",
    cases=CASES,
    reach_files=["libsrc:inih/ini.c"],
)
