"""inflection-words: pluralize and singularize (inflection 0.5.1)."""

from casekit import SHELL_METAS, SampleDef, arg, c

BATCH = "\n".join(
    ["octopus", "matrix", "Person", "MOUSE", "quiz", "analysis", "wolf", "knife", "bus", "fish"]
)
CASES = [
    c("--word", "post", desc="basic: regular noun"),
    c("--word", "box", desc="basic: -x takes -es"),
    c("--word", "city", "--count", "3", desc="basic: -y to -ies with a phrase"),
    c("--word", "apple", "--count", "1", desc="basic: count of one keeps the word"),
    c("--word", "person", desc="irregular person/people"),
    c("--word", "People", desc="irregular, capitalised plural"),
    c("--word", "ox", desc="ox/oxen anchored rule"),
    c("--word", "oxen", desc="already plural"),
    c("--word", "CamelOctopus", desc="rule matches the word end only"),
    c("--word", "sheep", desc="uncountable"),
    c("--word", "Money", desc="uncountable, any case"),
    c("--word", "goldfish", desc="uncountable only after a word boundary"),
    c("--word", "gold fish", desc="uncountable as the last word"),
    c("--word", "rare species", desc="uncountable last word keeps its s"),
    c("--word", "status", desc="status/statuses"),
    c("--word", "vertex", desc="vertex/vertices"),
    c("--word", "indices", desc="singular of indices"),
    c("--word", "crises", desc="crisis"),
    c("--word", "diagnoses", desc="diagnosis family"),
    c("--word", "halves", desc="-ves to -f"),
    c("--word", "wife", desc="-fe to -ves"),
    c("--word", "potato", desc="-o to -oes"),
    c("--word", "moves", desc="irregular move"),
    c("--word", "kine", desc="irregular cow/kine"),
    c("--word", "news", desc="news stays"),
    c("--word", "", desc="empty word"),
    c("--word", "   ", desc="whitespace-only word"),
    c("--word", "cat\n", desc="trailing newline: Python $ matches before it"),
    c("--word", "cats\n", desc="singular with a trailing newline"),
    c("--word", "café", desc="non-ASCII word"),
    c("--word", "ДОМ", desc="Cyrillic word"),
    c("--word", "x" * 400 + "y", desc="long word"),
    c("--word", "day", "--count", "-1", desc="negative one is singular"),
    c("--word", "day", "--count", "0", desc="zero is plural"),
    c("--word", "day", "--count", "1.5", desc="error: count not an integer"),
    c("--word", "day", "--count", " 2_000 ", desc="count in int() syntax"),
    c(stdin=BATCH, desc="words from stdin"),
    c(
        "--count",
        "2",
        stdin="child\r\nman\rwoman\x0bhuman\u2028zombie\n",
        desc="stdin split like str.splitlines",
    ),
    c(stdin="", desc="error: empty stdin"),
    c(stdin="\n\n", desc="blank lines are empty words"),
    c(desc="error: no --word and stdin is /dev/null"),
    *[c("--word", s, desc="shell metacharacters are plain text") for s in SHELL_METAS],
    c("--word", "day", "--count", desc="usage error (exit 2), dropped by the Oracle"),
]

SAMPLE = SampleDef(
    id="inflection-words",
    requirements=["inflection==0.5.1"],
    program="inflection_words.py",
    entry="inflection_words.mjs",
    category="text",
    api=["inflection.pluralize", "inflection.singularize"],
    args=[
        arg("word", "str", "the word to inflect; without it, one word per line of stdin"),
        arg("count", "int", "optional count for a 'N words' phrase"),
    ],
    stdin="optional",
    cases=CASES,
)
