"""inflection-ordinal: ordinal and ordinalize over integers (inflection 0.5.1)."""

from casekit import SHELL_METAS, SampleDef, arg, c

CASES = [
    c("--number", "1", desc="basic: 1st"),
    c("--number", "22", desc="basic: 22nd"),
    c("--number", "103", desc="basic: 103rd"),
    c("--number", "4", "--style", "suffix", desc="basic: suffix only"),
    c("--number", "11", desc="11th, not 11st"),
    c("--number", "12", desc="12th"),
    c("--number", "113", desc="113th"),
    c("--number", "1011", desc="1011th"),
    c("--number", "0", desc="0th"),
    c("--number", "-1", desc="negative: sign kept, suffix of the absolute value"),
    c("--number", "-12", desc="negative teen"),
    c("--number", "-1021", desc="negative 1021st"),
    c("--number", "123456789012345678901234567892", desc="big integer"),
    c("--number", " +42 ", desc="int() syntax"),
    c("--number", "١٢", desc="Arabic-Indic digits print as ASCII"),
    c("--number", "1_001", desc="underscores"),
    c("--number", "1.0", desc="not an integer"),
    c("--number", "", desc="empty: skipped"),
    c("--number", "   ", desc="whitespace only: skipped"),
    c("--number", "first", desc="not an integer"),
    c(stdin="1\n2\n3\n4\n11\n12\n13\n21\n111\n112\n", desc="stdin list"),
    c("--style", "suffix", stdin="1\r\n2\r3\x0c4\u20285\n", desc="str.splitlines separators"),
    c(stdin="\n \n7\nx\n\t\n-3\n", desc="blank lines skipped, line numbers kept"),
    c(stdin="", desc="empty stdin"),
    c(desc="no --number, stdin /dev/null"),
    c(stdin="\n".join(str(i) for i in range(-50, 151)) + "\n", desc="long list"),
    c(stdin="５\n٣\n𝟕\n", desc="Unicode digits from stdin"),
    c(stdin="\ufeff1\n2\n", desc="a BOM makes the first line not an integer"),
    c("--style", "short", desc="error: bad style"),
    c("--number", "2", "--number", "3", desc="last --number wins"),
    *[c("--number", s, desc="shell metacharacters") for s in SHELL_METAS],
    c(stdin="$((1+2))\n`echo 5`\n*\n", desc="shell metacharacters on stdin"),
    c("--style", desc="usage error (exit 2), dropped by the Oracle"),
]

SAMPLE = SampleDef(
    id="inflection-ordinal",
    requirements=["inflection==0.5.1"],
    program="inflection_ordinal.py",
    entry="inflection_ordinal.mjs",
    category="math/numbers",
    api=["inflection.ordinal", "inflection.ordinalize"],
    args=[
        arg("number", "str", "an integer (Python int() syntax); without it, one per line of stdin"),
        arg("style", "str", "full (default, e.g. 2nd) | suffix (e.g. nd)"),
    ],
    stdin="optional",
    cases=CASES,
)
