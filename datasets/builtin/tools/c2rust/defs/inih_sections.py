"""inih-sections: ini_parse_string with a section filter (inih r55, Debian libinih-dev 55-1)."""

from ckit import SHELL_METAS, CSampleDef, arg, c

CONF = "; settings\n[server]\nhost = example.org\nport=8080\n\n[client]\nretries: 3\nname = two words ; a comment\n"
LONG = "s" * 60

CASES = [
    c(stdin=CONF, desc="basic: every entry"),
    c("--section", "client", stdin=CONF, desc="basic: one section"),
    c(
        "--section",
        "server",
        stdin="[server]\nk=v\n[other]\nk=w\n[server]\nk=x\n",
        desc="basic: a section seen twice",
    ),
    c(stdin="[a]\nlist = one\n  two\n\tthree\n", desc="basic: continuation lines"),
    c(stdin="", desc="empty input"),
    c("--section", "", stdin="top=1\n[s]\nk=v\n", desc="entries before any section have section ''"),
    c("--section", "Server", stdin=CONF, desc="section names compare case-sensitively"),
    c("--section", "nope", stdin=CONF, desc="no such section"),
    c(stdin="[" + LONG + "]\nk=v\n", desc="a section name is cut to 49 bytes"),
    c("--section", LONG, stdin="[" + LONG + "]\nk=v\n", desc="so a 60-byte filter never matches"),
    c("--section", "s" * 49, stdin="[" + LONG + "]\nk=v\n", desc="but its first 49 bytes do"),
    c(stdin="[broken\nk=v\n[ok]\nk=w\n", desc="an unclosed section is an error, parsing goes on"),
    c(stdin="[a] trailing\nk=v\n", desc="text after ] is ignored"),
    c(stdin="[a ; comment]\nk=v\n", desc="an inline comment inside brackets"),
    c(stdin="[s]\nword ; k=v\nk=w\n", desc="an inline comment before any separator: an error"),
    c(stdin="[ spaced ]\n k = v \n", desc="spaces inside brackets are kept"),
    c(stdin="\ufeff[bom]\nk=v\n", desc="a UTF-8 BOM"),
    c(stdin="[a]\r\nk=v\r\n", desc="CRLF"),
    c(stdin="garbage\n[x]\nbad line\n", desc="the first error's line"),
    c(stdin="[x]\nk=v\n  more ; note\n", desc="no inline comments in continuations"),
    c(stdin="[u]\nназвание = значение ✓\nemoji=😀\n", desc="Unicode"),
    c(stdin="n=-5\nf=-1.5e3\n", desc="negative numbers are text"),
    c(stdin="a=1\n\0b=2\n", desc="a NUL byte ends the text"),
    c(stdin="[q]\nkey=a=b:c\nother:x=y\n", desc="the first separator wins"),
    c(stdin="k=" + "x" * 300 + "\n", desc="a line longer than 199 bytes is read in pieces"),
    c(stdin="".join(f"[s{i}]\nk{i} = v{i}\n" for i in range(500)), desc="huge: 500 sections"),
    c(
        "--section",
        "s250",
        stdin="".join(f"[s{i}]\nk{i} = v{i}\n" for i in range(500)),
        desc="huge, filtered",
    ),
    *[
        c("--section", s, stdin=f"[{s}]\nk=v\n", desc="shell metacharacters in a section")
        for s in SHELL_METAS[:4]
    ],
    c(
        "--section",
        "a",
        "--section",
        "b",
        stdin="[a]\nx=1\n[b]\ny=2\n",
        desc="a repeated name: the last wins",
    ),
    c("--sect", "a", stdin="[a]\nx=1\n", desc="usage error (exit 2): unknown name, dropped by the Oracle"),
]

SAMPLE = CSampleDef(
    id="inih-sections",
    package="libinih-dev",
    language="c",
    program="inih_sections.c",
    category="parsing/serialization",
    api=["ini_parse_string"],
    args=[arg("section", "str", "print only the entries of this section")],
    stdin="required",
    cases=CASES,
    reach_files=["libsrc:inih/ini.c"],
)
