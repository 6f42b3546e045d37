"""base58-text: UTF-8 text to Base58, Base58 back to bytes, integers to Base58 (base58 2.1.1)."""

from casekit import SHELL_METAS, SampleDef, arg, c

CASES = [
    c("--text", "hello world", desc="basic: encode ASCII text"),
    c("--mode", "decode", "--text", "StV1DL6CwTryKyV", desc="basic: decode to text"),
    c("--mode", "encode", "--text", "Base58 test", "--alphabet", "ripple", desc="basic: ripple alphabet"),
    c("--mode", "int", "--text", "123456789", desc="basic: integer to Base58"),
    c("--mode", "decode", "--text", "11StV1DL6CwTryKyV", desc="leading ones are zero bytes"),
    c("--mode", "decode", "--text", "111", desc="only leading ones"),
    c("--mode", "decode", "--text", "rrStV", "--alphabet", "ripple", desc="ripple leading zero symbol"),
    c("--mode", "decode", "--text", "", desc="empty decodes to nothing"),
    c("--text", "", desc="empty encodes to nothing"),
    c("--text", "   ", desc="whitespace-only text is data"),
    c("--text", "héllo wörld ✓ 😀", desc="unicode text, encoded as UTF-8"),
    c("--text", "日本語のテキスト", desc="CJK text"),
    c("--text", "x" * 600, desc="long text"),
    c("--mode", "decode", "--text", "2NEpo7TZRRrLZSi2U" * 20, desc="long Base58 string"),
    c("--mode", "decode", "--text", "StV1DL6CwTryKyV \t\n", desc="trailing whitespace is stripped"),
    c("--mode", "decode", "--text", " StV1DL6CwTryKyV", desc="error: a leading space is invalid"),
    c("--mode", "decode", "--text", "StV1DL6CwTryKyV\u3000", desc="trailing ideographic space is stripped"),
    c("--mode", "decode", "--text", "0OIl", desc="error: characters outside the alphabet"),
    c("--mode", "decode", "--text", "ab'cd", desc="error: a quote"),
    c("--mode", "decode", "--text", "abc\\d", desc="error: a backslash"),
    c("--mode", "decode", "--text", "ab\x01", desc="error: a control character"),
    c("--mode", "decode", "--text", "abcé", desc="error: one non-ASCII character"),
    c("--mode", "decode", "--text", "ab€€x😀", desc="error: a run of non-ASCII characters"),
    c("--mode", "decode", "--text", "5Q", desc="decodes to a non-UTF-8 byte"),
    c("--mode", "decode", "--text", "3yZe7d", desc="decodes to text"),
    c("--mode", "int", "--text", "0", desc="zero is the first symbol"),
    c("--mode", "int", "--text", "-5", desc="error: negative"),
    c("--mode", "int", "--text", "123456789012345678901234567890", desc="big integer"),
    c("--mode", "int", "--text", " 58 ", desc="int() syntax with spaces"),
    c("--mode", "int", "--text", "57", "--alphabet", "ripple", desc="last ripple symbol"),
    c("--mode", "int", "--text", "1e3", desc="error: not an integer"),
    c("--mode", "hex", "--text", "ab", desc="error: unknown mode"),
    c("--alphabet", "flickr", "--text", "ab", desc="error: unknown alphabet"),
    c("--mode", "decode", desc="error: --text missing"),
    *[c("--text", s, desc="shell metacharacters are plain data") for s in SHELL_METAS],
    *[
        c("--mode", "decode", "--text", s, desc="error: shell metacharacter in Base58")
        for s in SHELL_METAS[:3]
    ],
    c("--txt", "a", desc="usage error (exit 2), dropped by the Oracle"),
]

SAMPLE = SampleDef(
    id="base58-text",
    requirements=["base58==2.1.1"],
    program="base58_text.py",
    entry="base58_text.mjs",
    category="encoding",
    api=["base58.b58encode", "base58.b58decode", "base58.b58encode_int"],
    args=[
        arg("mode", "str", "encode (default) | decode | int"),
        arg("text", "str", "the text, Base58 string or integer to convert", required=True),
        arg("alphabet", "str", "bitcoin (default) | ripple"),
    ],
    cases=CASES,
)
