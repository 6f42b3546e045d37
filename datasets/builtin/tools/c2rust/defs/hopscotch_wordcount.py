"""hopscotch-wordcount: word frequencies counted in tsl::hopscotch_map<std::string, long>, printed sorted
(libtsl-hopscotch-map-dev 2.3.0, header-only)."""

from ckit import SHELL_METAS, CSampleDef, arg, c

PROSE = (
    "It was the best of times, it was the worst of times, it was the age of wisdom, "
    "it was the age of foolishness, it was the epoch of belief, it was the epoch of incredulity. "
)
MANY = " ".join(f"w{i % 997}" for i in range(6000))

CASES = [
    c(stdin="the cat and the dog and the bird\n", desc="basic: counts, ties sorted by word"),
    c("--fold", "yes", stdin="Apple apple APPLE banana Banana cherry\n", desc="basic: ASCII case folding"),
    c("--top", "2", stdin="a b c a b a d\n", desc="basic: only the top two"),
    c(stdin="", desc="basic: empty input"),
    c("--fold", "yes", stdin="Zebra zebra ZEBRA zoo Zoo\n", desc="folding the last letter of the alphabet"),
    c("--fold", "yes", "--top", "3", stdin="Zz zZ ZZ zz Az aZ\n", desc="folding Z inside words"),
    c("--fold", "yes", stdin=PROSE * 3, desc="prose with punctuation kept in words"),
    c(stdin=PROSE, desc="prose, case kept"),
    c(stdin=MANY, desc="a few thousand words, 997 distinct"),
    c("--top", "5", stdin=MANY, desc="top five of many ties"),
    c(stdin="   \t\n\r\n  ", desc="whitespace only"),
    c(stdin="a\tb\x0bc\x0cd\re\nf g", desc="every C whitespace byte separates words"),
    c(stdin="tab\u00a0nbsp\u2003emspace word", desc="Unicode spaces are part of words"),
    c(
        "--fold",
        "yes",
        stdin="Ärger ärger ÄRGER Straße STRASSE İstanbul istanbul",
        desc="non-ASCII letters are not folded",
    ),
    c(stdin="日本 日本 中文 🦄 🦄 🦄 é e\u0301", desc="Unicode words sorted by bytes"),
    c(stdin="b B a A _ ~ 0 9 ~~", desc="byte order of ASCII"),
    c("--top", "0", stdin="x y x", desc="top 0 shows all"),
    c("--top", "9999999", stdin="x y x", desc="top larger than the list"),
    c("--top", "10000000", stdin="x", desc="top with too many digits"),
    c("--top", "-1", stdin="x", desc="negative top"),
    c("--top", "", stdin="x", desc="empty top"),
    c("--top", "3x", stdin="x", desc="malformed top"),
    c("--top", "٣", stdin="x", desc="Arabic-Indic digit is not a digit"),
    c("--fold", "YES", stdin="x", desc="fold values are exact"),
    c("--fold", "no", "--fold", "yes", stdin="A a", desc="a repeated name keeps its last value"),
    c(stdin="x" * 5000 + " " + "x" * 5000, desc="a very long word"),
    c(stdin=" ".join(SHELL_METAS), desc="shell metacharacters are words"),
    c(stdin="one\n", desc="single word"),
    c("--sort", "count", stdin="x", desc="usage error (exit 2), dropped by the Oracle"),
]

SAMPLE = CSampleDef(
    id="hopscotch-wordcount",
    package="libtsl-hopscotch-map-dev",
    language="cpp",
    program="hopscotch_wordcount.cpp",
    category="text",
    api=["tsl::hopscotch_map", "operator[]", "size", "iteration (begin/end)"],
    args=[
        arg("top", "int", "print only the first K words (0 = all; 1-7 ASCII digits)"),
        arg("fold", "str", "yes: lower-case ASCII letters before counting; no (default)"),
    ],
    stdin="optional",
    reach_files=["/usr/include/tsl/*.h"],
    cases=CASES,
)
