"""num2words-english: cardinal, ordinal, ordinal_num and year in English (num2words 0.5.13)."""

from casekit import SHELL_METAS, SampleDef, arg, c

NUMBERS = [
    "0", "7", "13", "21", "40", "99", "100", "101", "110", "115", "999", "1000", "1001", "1010", "1100",
    "1999", "2000", "2005", "2024", "1066", "10000", "12345", "100000", "1000000", "1000001", "1234567",
    "1000000000", "123456789012", "10" + "0" * 20, "-1", "-45", "-1900", "1_000", " 42 ", "٤٢",
    "99999999999999999999999999999999999", "1" + "0" * 306, "-" + "9" * 306, "1.5", "-0.5", "2.675",
    "0.1", "1e-7", "3.14159", "-12.25", "2.0", "1e3",
]
CASES = [
    c("--number", "42", desc="basic: forty-two"),
    c("--number", "1984", "--to", "year", desc="basic: a year"),
    c("--number", "3", "--to", "ordinal", desc="basic: third"),
    c("--number", "22", "--to", "ordinal_num", desc="basic: 22nd"),
    *[c("--number", n, desc="every mode") for n in NUMBERS],
    c("--number", "", desc="error: empty"),
    c("--number", "   ", desc="error: whitespace"),
    c("--number", "twelve", desc="error: words"),
    c("--number", "inf", desc="error: infinity"),
    c("--number", "nan", desc="error: not a number"),
    c("--number", "5", "--to", "currency", desc="error: unknown mode"),
    *[c("--number", s, desc="error: shell metacharacters") for s in SHELL_METAS[:4]],
    c("--number", "1", "--lang", "fr", desc="usage error (exit 2), dropped by the Oracle"),
]

SAMPLE = SampleDef(
    id="num2words-english",
    requirements=["num2words==0.5.13", "docopt==0.6.2"],
    program="num2words_english.py",
    entry="num2words_english.mjs",
    category="math/numbers",
    api=["num2words(to='cardinal')", "num2words(to='ordinal')", "num2words(to='ordinal_num')", "num2words(to='year')"],
    args=[
        arg("number", "str", "an integer (Python int() syntax) or a finite decimal number", required=True),
        arg("to", "str", "all (default) | cardinal | ordinal | ordinal_num | year"),
    ],
    cases=CASES,
)
