"""slugify-basic: python-slugify defaults over text in many scripts (python-slugify 8.0.4, text-unidecode 1.3)."""

from casekit import SHELL_METAS, SampleDef, arg, c

REQS = ["python-slugify==8.0.4", "text-unidecode==1.3"]
CASES = [
    c("--text", "Hello World", desc="basic: two words"),
    c("--text", "This is a test ---", desc="basic: trailing dashes collapse"),
    c("--text", "C'est déjà l'été.", desc="basic: accents and quotes"),
    c("--text", "10 | 20 %", desc="basic: symbols"),
    c("--text", "Компьютер", desc="Cyrillic transliteration"),
    c("--text", "Ελληνικά γράμματα", desc="Greek transliteration"),
    c("--text", "影師嗎", desc="CJK transliteration"),
    c("--text", "ひらがな カタカナ", desc="kana"),
    c("--text", "Straße & Ärger über Öl", desc="German"),
    c("--text", "jaja---lol-méméméoo--a", desc="mixed dashes"),
    c("--text", "i love 🦄 and ❤", desc="astral emoji is dropped, BMP symbol transliterated"),
    c("--text", "1,000,000 people, 2 cats", desc="commas between digits vanish"),
    c("--text", "caf&eacute;s &amp; cr&egrave;me", desc="HTML named entities"),
    c("--text", "a&#65;b&#x42;c", desc="decimal and hex references"),
    c("--text", "x&#1114112;y&#65;", desc="an out-of-range reference stops the whole decimal pass"),
    c("--text", "&#x110000;&#x41;", desc="out-of-range hex reference"),
    c("--text", "it's O'Neil's ''quoted''", desc="apostrophes"),
    c("--text", "ﬁnancial ½ ²", desc="compatibility characters"),
    c("--text", "", desc="empty"),
    c("--text", "   \t  ", desc="whitespace only"),
    c("--text", "!!!", desc="nothing survives"),
    c("--text", "word " * 200, desc="long text"),
    c("--text", "UPPER lower MiXeD", desc="lower-cased"),
    c("--text", "tab\tand\nnewline", desc="control whitespace"),
    c("--text", "a_b-c.d/e\\f", desc="underscore and punctuation"),
    c("--text", "Ǆemal ǈ ĳssel ŉ", desc="digraph letters"),
    c("--text", "١٢٣ ４５６", desc="non-ASCII digits"),
    c("--text", "₤100 ¥200 €300", desc="currency signs"),
    c(stdin="First line\nSecond: line!\n\nÜmlaut\r\nlast", desc="stdin lines"),
    c(stdin="", desc="empty stdin prints nothing"),
    c(desc="stdin from /dev/null"),
    c(stdin="a\u2028b\x0cc\x1dd\n", desc="splitlines separators"),
    *[c("--text", s, desc="shell metacharacters") for s in SHELL_METAS],
    c(stdin="$(rm -rf /)\n`reboot`\n", desc="shell metacharacters on stdin"),
    c("--txt", "x", desc="usage error (exit 2), dropped by the Oracle"),
]

SAMPLE = SampleDef(
    id="slugify-basic",
    requirements=REQS,
    program="slugify_basic.py",
    entry="slugify_basic.mjs",
    category="text",
    api=["slugify.slugify"],
    args=[arg("text", "str", "the text to slugify; without it, each line of stdin")],
    stdin="optional",
    cases=CASES,
)
