"""cjson-parse-print: cJSON_ParseWithOpts, cJSON_Print / cJSON_PrintUnformatted (cJSON 1.7.15, Debian)."""

from ckit import SHELL_METAS, CSampleDef, arg, c

COMPACT = ("--format", "compact")
STRICT = ("--strict", "1")
ROWS = "[" + ", ".join(f'{{"n": {i * 7 - 3000}, "s": "r{i}"}}' for i in range(600)) + "]"

CASES = [
    c(
        stdin='{"name": "cJSON", "tags": ["c", "json"], "nested": {"ok": true, "none": null}}',
        desc="basic: pretty",
    ),
    c(*COMPACT, stdin='{ "a" : [ 1 , 2.5 , -3 ] , "b" : { } }\n', desc="basic: compact"),
    c(stdin='{"a": 1,}', desc="basic: a trailing comma is a parse error"),
    c(
        *COMPACT,
        stdin='["line\\nbreak", "caf\\u00e9", "tab\\t", "quote\\"", "slash\\/"]',
        desc="basic: escapes",
    ),
    c(stdin="", desc="empty input"),
    c(stdin="   \n\t  ", desc="whitespace only"),
    c(stdin="[1] trailing", desc="trailing text is allowed without --strict"),
    c(*STRICT, stdin="[1] trailing", desc="--strict refuses trailing text"),
    c(*STRICT, stdin="  [1]  \n\n", desc="--strict allows trailing whitespace"),
    c(stdin='\ufeff{"bom": 1}', desc="a UTF-8 BOM is skipped"),
    c(
        *COMPACT,
        stdin="[123456789012345678, 0.1, 1e-7, -0, 1.5e300, 100, 0.30000000000000004]",
        desc="numbers",
    ),
    c(*COMPACT, stdin="[1e999, -1e999, 1e-400]", desc="overflow prints null, underflow 0"),
    c(*COMPACT, stdin="[01, 1., -0.0, 2E+3, 1e5e5]", desc="what strtod accepts (and the rest is garbage)"),
    c(stdin="[1, -]", desc="a lone minus is a parse error"),
    c(*COMPACT, stdin='["\\ud83d\\ude00", "\\u4e2d\\u6587"]', desc="surrogate pairs and BMP escapes"),
    c(stdin='"\\ude00"', desc="a lone low surrogate is an error"),
    c(*COMPACT, stdin='["\\uZZZZabc", "a\\u0000b"]', desc="bad hex and \\u0000 end the C string"),
    c(*COMPACT, stdin='["ctl\x01\x1f", "del\x7f"]', desc="raw control bytes print as \\u00XX"),
    c(stdin='"unterminated', desc="unterminated string"),
    c(stdin='"bad escape \\x"', desc="unknown escape"),
    c(*COMPACT, stdin="[1, 2]\0[3]", desc="a NUL byte ends the input"),
    c(*COMPACT, stdin='{"ключ": "значение", "emoji": "😀"}', desc="Unicode passes through"),
    c(*COMPACT, stdin='{"a": 1, "a": 2, "A": 3}', desc="duplicate keys are kept"),
    c(stdin='[{}, [], {"e": {}}, [[]]]', desc="empty containers, pretty"),
    c(*COMPACT, stdin="[" * 1000 + "]" * 1000, desc="1000 levels: the nesting limit"),
    c(*COMPACT, stdin="[" * 1001 + "]" * 1001, desc="1001 levels: too deep"),
    c(stdin='{"a" 1}', desc="missing colon"),
    c(stdin="{1: 2}", desc="a key must be a string"),
    c(stdin="[1 2]", desc="missing comma"),
    c(stdin="nul", desc="truncated literal"),
    c(*COMPACT, stdin="true", desc="a bare literal"),
    c(*COMPACT, stdin=ROWS, desc="huge: 600 objects"),
    c(
        *COMPACT,
        stdin="{" + ", ".join(f'"{s}": "{s}"' for s in SHELL_METAS[:6]).replace("\\", "") + "}",
        desc="shell metacharacters",
    ),
    c("--format", "yaml", stdin="[]", desc="error: unknown format"),
    c("--strict", "yes", stdin="[]", desc="error: --strict takes 0 or 1"),
    c("--strict", "1", "--strict", "0", stdin="[1] x", desc="a repeated name: the last wins"),
    c("--indent", "2", stdin="[]", desc="usage error (exit 2): unknown name, dropped by the Oracle"),
]

SAMPLE = CSampleDef(
    id="cjson-parse-print",
    package="libcjson-dev",
    language="c",
    program="cjson_parse_print.c",
    category="parsing/serialization",
    api=[
        "cJSON_ParseWithOpts",
        "cJSON_GetErrorPtr",
        "cJSON_Print",
        "cJSON_PrintUnformatted",
        "cJSON_free",
        "cJSON_Delete",
    ],
    args=[
        arg("format", "str", "pretty (cJSON_Print, the default) or compact (cJSON_PrintUnformatted)"),
        arg("strict", "int", "1: require nothing but whitespace after the value (default 0)"),
    ],
    stdin="required",
    cases=CASES,
    reach_files=["libsrc:cjson/cJSON.c"],
)
