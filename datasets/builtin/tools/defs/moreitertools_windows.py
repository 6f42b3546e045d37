"""moreitertools-windows: chunked, chunked_even, windowed, distribute, divide, split_at (more-itertools 10.5.0)."""

from casekit import SHELL_METAS, SampleDef, arg, c

ABC = ",".join("abcdefg")
CASES = [
    c("--items", "a,b,c,d,e", desc="basic: pairs"),
    c("--items", ABC, "--n", "3", desc="basic: threes"),
    c("--items", "a,b,|,c,d", "--n", "2", desc="basic: a separator"),
    c("--items", "1,2,3,4", "--n", "4", desc="basic: n equals the length"),
    c("--items", ABC, "--n", "3", "--step", "2", desc="windows with a step"),
    c("--items", ABC, "--n", "3", "--step", "5", desc="step larger than the window: padding"),
    c("--items", ABC, "--n", "2", "--step", "3", desc="step just over the window"),
    c("--items", "a,b", "--n", "5", desc="window longer than the items"),
    c("--items", ",".join(str(i) for i in range(10)), "--n", "4", desc="chunked_even balances"),
    c("--items", ",".join(str(i) for i in range(11)), "--n", "5", desc="chunked_even with a buffer"),
    c("--items", ",".join(str(i) for i in range(23)), "--n", "6", desc="longer chunked_even"),
    c("--items", ABC, "--n", "1", desc="n of one"),
    c("--items", ABC, "--n", "0", desc="n of zero: errors and the empty window"),
    c("--items", ABC, "--n", "-2", desc="negative n"),
    c("--items", ABC, "--step", "0", desc="step of zero"),
    c("--items", "", desc="no items"),
    c("--items", ",", desc="two empty items"),
    c("--items", " , ,  ", desc="whitespace items"),
    c("--items", "a,|,b,|,c,|", "--maxsplit", "1", desc="maxsplit 1"),
    c("--items", "a,|,b,|,c,|", "--maxsplit", "0", desc="maxsplit 0"),
    c("--items", "a,;,b", "--sep", ";", desc="custom separator"),
    c("--items", "|,|,|", desc="only separators"),
    c("--items", "é,ß,日本,😀,\u200b,\x07", "--n", "4", desc="unicode and non-printable items in repr"),
    c("--items", 'it\'s,"q",both\'",back\\slash', desc="quotes and backslashes in repr"),
    c("--items", "line\nbreak,tab\tstop", desc="escapes in repr"),
    c("--items", ",".join(f"x{i}" for i in range(300)), "--n", "7", "--step", "3", desc="long list"),
    c("--items", ABC, "--n", "2000", desc="error: n out of range"),
    c("--items", ABC, "--n", "two", desc="error: n not an integer"),
    c("--items", ABC, "--step", "1.5", desc="error: step not an integer"),
    c("--items", ABC, "--n", "2", "--maxsplit", "-7", desc="other negative maxsplit"),
    *[c("--items", s, "--n", "2", desc="shell metacharacters") for s in SHELL_METAS],
    c("--items", "a,b", "--size", "2", desc="usage error (exit 2), dropped by the Oracle"),
]

SAMPLE = SampleDef(
    id="moreitertools-windows",
    requirements=["more-itertools==10.5.0"],
    program="moreitertools_windows.py",
    entry="moreitertools_windows.mjs",
    category="data structures",
    api=[
        "more_itertools.chunked",
        "more_itertools.chunked_even",
        "more_itertools.windowed",
        "more_itertools.distribute",
        "more_itertools.divide",
        "more_itertools.split_at",
    ],
    args=[
        arg("items", "str", "comma-separated items (empty: no items)"),
        arg("n", "int", "chunk size / window size / number of groups (default 2)"),
        arg("step", "int", "window step (default 1)"),
        arg("sep", "str", "separator item for split_at (default |)"),
        arg("maxsplit", "int", "maximum splits for split_at (default -1: no limit)"),
    ],
    cases=CASES,
)
