"""cjson-query: cJSON_Parse, key/index lookup, type checks and cJSON_Compare (cJSON 1.7.15, Debian)."""

from ckit import SHELL_METAS, CSampleDef, arg, c

DOC = (
    '{"name": "Widget", "Price": 12.5, "tags": ["a", "b", {"deep": [1, 2, 3]}], '
    '"stock": {"Count": 3000000000, "left": -7}, "ok": true, "none": null, "empty": {}, "": "blank key"}'
)
ROWS = "[" + ", ".join(f'{{"id": {i}, "v": "{i * i}"}}' for i in range(1500)) + "]"
CS = ("--case-sensitive", "1")

CASES = [
    c("--path", "name", stdin=DOC, desc="basic: a key"),
    c("--path", "tags/#2/deep", "--equals", "[1, 2, 3]", stdin=DOC, desc="basic: index, nested key, equal"),
    c("--path", "stock", "--equals", '{"left": -8, "Count": 3e9}', stdin=DOC, desc="basic: a value differs"),
    c("--path", "tags/#9", stdin=DOC, desc="basic: index out of range"),
    c(stdin=DOC, desc="no path: the whole document"),
    c("--path", "price", stdin=DOC, desc="keys match case-insensitively by default"),
    c("--path", "price", *CS, stdin=DOC, desc="--case-sensitive 1 does not find price"),
    c("--path", "stock/count", stdin=DOC, desc="a number past INT_MAX saturates valueint"),
    c(
        "--path",
        "stock/left",
        "--equals",
        "-7.0000000000000001",
        stdin=DOC,
        desc="numbers compare within epsilon",
    ),
    c(
        "--path",
        "stock",
        "--equals",
        '{"LEFT": -7, "count": 3000000000}',
        stdin=DOC,
        desc="object keys compare case-insensitively",
    ),
    c(
        "--path",
        "stock",
        "--equals",
        '{"LEFT": -7, "count": 3000000000}',
        *CS,
        stdin=DOC,
        desc="and case-sensitively with the flag",
    ),
    c("--path", "stock", "--equals", '{"left": -7}', stdin=DOC, desc="a subset is not equal"),
    c(
        "--path",
        "stock",
        "--equals",
        '{"left": -7, "Count": 3000000000, "more": 1}',
        stdin=DOC,
        desc="a superset is not equal",
    ),
    c("--path", "#1", stdin=DOC, desc="an index on an object takes its N-th member"),
    c("--path", "tags/a", stdin=DOC, desc="a key on an array finds nothing"),
    c("--path", "name/#0", stdin=DOC, desc="an index on a string finds nothing"),
    c("--path", "", stdin=DOC, desc="empty path"),
    c("--path", "/", stdin=DOC, desc="a slash: two empty keys"),
    c("--path", "ok", "--equals", "true", stdin=DOC, desc="true equals true"),
    c("--path", "none", "--equals", "false", stdin=DOC, desc="null is not false"),
    c("--path", "empty", "--equals", "{}", stdin=DOC, desc="empty objects are equal"),
    c("--path", "tags", "--equals", '["a", "b"]', stdin=DOC, desc="arrays of different length"),
    c("--path", "name", "--equals", "{bad", stdin=DOC, desc="--equals that does not parse"),
    c("--path", "tags/#-1", stdin=DOC, desc="error: a negative index"),
    c("--path", "tags/#", stdin=DOC, desc="error: an empty index"),
    c("--path", "tags/#1234567890", stdin=DOC, desc="error: too many digits"),
    c("--path", "x", stdin="", desc="empty input does not parse"),
    c("--path", "a", stdin='{"a": [1, 2,]}', desc="malformed input"),
    c("--path", "ключ/#0", stdin='{"ключ": ["значение ✓"]}', desc="Unicode keys"),
    c("--path", "a", stdin='{"a\\u0000b": 1}', desc="a \\u0000 in a key ends it"),
    c("--path", "k", stdin='{"k": 1, "K": 2, "k": 3}', desc="duplicate keys: the first wins"),
    c("--path", "#1499/v", stdin=ROWS, desc="huge: 1500 rows"),
    c("--path", "#0", "--case-sensitive", "2", stdin="[1]", desc="error: --case-sensitive takes 0 or 1"),
    *[
        c("--path", s, stdin='{"$HOME": 1, "`echo hi`": 2}', desc="shell metacharacters as keys")
        for s in SHELL_METAS[:2]
    ],
    c("--path", "a", "--path", "b", stdin='{"a": 1, "b": 2}', desc="a repeated name: the last wins"),
    c("--query", "a", stdin="{}", desc="usage error (exit 2): unknown name, dropped by the Oracle"),
]

SAMPLE = CSampleDef(
    id="cjson-query",
    package="libcjson-dev",
    language="c",
    program="cjson_query.c",
    category="parsing/serialization",
    api=[
        "cJSON_Parse",
        "cJSON_GetErrorPtr",
        "cJSON_GetObjectItem",
        "cJSON_GetObjectItemCaseSensitive",
        "cJSON_GetArrayItem",
        "cJSON_GetArraySize",
        "cJSON_IsObject",
        "cJSON_IsArray",
        "cJSON_IsString",
        "cJSON_IsNumber",
        "cJSON_IsTrue",
        "cJSON_IsFalse",
        "cJSON_IsNull",
        "cJSON_Compare",
        "cJSON_PrintUnformatted",
        "cJSON_free",
        "cJSON_Delete",
    ],
    args=[
        arg("path", "str", "segments separated by '/': #N is the N-th child, anything else a key"),
        arg("equals", "str", "JSON text to compare the found node with (cJSON_Compare)"),
        arg("case-sensitive", "int", "1: keys match case-sensitively (default 0)"),
    ],
    stdin="required",
    cases=CASES,
    reach_files=["libsrc:cjson/cJSON.c"],
)
