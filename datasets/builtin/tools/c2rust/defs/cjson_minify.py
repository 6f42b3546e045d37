"""cjson-minify: cJSON_Minify on stdin (cJSON 1.7.15, Debian libcjson-dev)."""

from ckit import SHELL_METAS, CSampleDef, c

BIG = "[\n" + ",\n".join(f'  {{ "id" : {i} , "name" : "item {i}" }} // row {i}' for i in range(400)) + "\n]\n"

CASES = [
    c(stdin='{ "a" : 1 ,\n  "b" : [ 1 , 2 ] }\n', desc="basic: spaces and newlines go"),
    c(stdin='// a line comment\n{"k": "v"} /* a block comment */\n', desc="basic: both comment kinds"),
    c(stdin='[ "spaces inside strings stay" ,  true ,\tnull ]', desc="basic: strings are copied verbatim"),
    c(stdin='{\r\n\t"nested": {"x": -1.5e3}\r\n}\r\n', desc="basic: CRLF and tabs"),
    c(stdin="", desc="empty input"),
    c(stdin="  \n\t \r\n ", desc="whitespace only"),
    c(stdin='{"ratio": 1 / 2}', desc="a lone slash is dropped"),
    c(stdin="a/b/c", desc="every lone slash is dropped"),
    c(stdin="1 /", desc="a slash at the very end"),
    c(stdin='["a\\\\" , "b c"]', desc='"\\\\" then a quote: cJSON treats the quote as escaped'),
    c(stdin='{"q": "say \\"hi\\"  now"}', desc="escaped quotes inside a string"),
    c(stdin='"abc   def', desc="unterminated string keeps its spaces"),
    c(stdin="[1, /* never closed", desc="unterminated block comment"),
    c(stdin="1 // end", desc="line comment without a newline"),
    c(stdin="/*/ tricky */ 2", desc="a block comment that starts with a slash"),
    c(stdin='/* " */ 3 4', desc="a quote inside a comment"),
    c(stdin='{"url": "http://x.y/z // not a comment"}', desc="comment markers inside a string"),
    c(stdin='{ "ключ" : "значение ✓" , "emoji" : "😀 x" }', desc="Unicode"),
    c(stdin="hello world\n", desc="not JSON at all"),
    c(stdin="[1, 2]\0 [3, 4]", desc="a NUL byte ends the C string"),
    c(stdin='"tab\tinside" \t "x"', desc="a raw tab inside a string stays"),
    c(stdin="//\n//\n", desc="only comments"),
    c(stdin="/**/1/**/2", desc="empty block comments"),
    c(stdin="[ -1 , -2.5e-3 , +4 ]", desc="negative numbers"),
    c(stdin='"\\\\\\"" x', desc="backslash, escaped quote"),
    c(stdin="/", desc="just a slash"),
    c(stdin=BIG, desc="huge: 400 rows with comments"),
    c(stdin="x" * 5000 + " " + "y" * 5000, desc="huge: 10000 letters"),
    *[c(stdin=f'{{"s": "{s}"}} {s}', desc="shell metacharacters stay literal") for s in SHELL_METAS[:3]],
    c("--pretty", desc="usage error (exit 2): arguments are refused, dropped by the Oracle"),
]

SAMPLE = CSampleDef(
    id="cjson-minify",
    package="libcjson-dev",
    language="c",
    program="cjson_minify.c",
    category="parsing/serialization",
    api=["cJSON_Minify"],
    args=[],
    stdin="required",
    cases=CASES,
    reach_files=["libsrc:cjson/cJSON.c"],
)
