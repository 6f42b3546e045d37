"""base58-check: Base58Check encoding and verification, raw decoding with autofix (base58 2.1.1)."""

from casekit import SHELL_METAS, SampleDef, arg, c

ADDR = "1PMycacnJaSqwwJqjawXBErnLsZ7RkXUAs"
CASES = [
    c("--hex", "00f54a5851e9372b87810a8e60cdd2e7cfd80b6e31", desc="basic: a bitcoin address payload"),
    c("--mode", "decode", "--text", ADDR, desc="basic: verify an address"),
    c("--mode", "raw", "--text", "2NEpo7TZRRrLZSi2U", desc="basic: raw decode with integer"),
    c("--hex", "80", "--alphabet", "ripple", desc="basic: ripple alphabet"),
    c("--hex", "", desc="empty payload"),
    c("--hex", "00 00 01", desc="spaces between bytes"),
    c("--hex", "  0a\n0b\t", desc="ASCII whitespace around bytes"),
    c("--hex", "abc", desc="error: odd number of digits"),
    c("--hex", "0g", desc="error: bad second digit"),
    c("--hex", "a b", desc="error: space inside a byte"),
    c("--hex", "zz0é", desc="error: non-ASCII is reported first"),
    c("--hex", "ab\u00a0cd", desc="error: no-break space is not skipped"),
    c("--hex", "ff" * 300, desc="long payload"),
    c("--hex", "DEADBEEF", desc="upper-case hex digits"),
    c("--mode", "decode", "--text", ADDR[:-1] + "t", desc="error: checksum mismatch"),
    c("--mode", "decode", "--text", "", desc="error: empty input fails the checksum"),
    c("--mode", "decode", "--text", "3QJmnh", desc="short input verifies an empty payload"),
    c("--mode", "decode", "--text", ADDR + "\n", desc="trailing newline is stripped"),
    c("--mode", "decode", "--text", ADDR.replace("1", "l", 1), "--autofix", "yes", desc="autofix l to 1"),
    c("--mode", "decode", "--text", ADDR.replace("1", "l", 1), desc="error: l without autofix"),
    c("--mode", "raw", "--text", "1I1lo0O", "--autofix", "yes", desc="autofix groups, leading ones only"),
    c("--mode", "raw", "--text", "o0O", "--autofix", "yes", "--alphabet", "ripple", desc="ripple autofix"),
    c("--mode", "raw", "--text", "111", desc="only zero bytes, integer 0"),
    c("--mode", "raw", "--text", "  ", desc="whitespace only decodes to nothing"),
    c("--mode", "raw", "--text", " 2", desc="error: leading space"),
    c("--mode", "raw", "--text", "2NEpo€😀", desc="error: non-ASCII run"),
    c("--mode", "raw", "--text", "\t2NEpo", desc="error: leading tab"),
    c("--mode", "raw", "--text", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", desc="large integer"),
    c("--mode", "verify", desc="error: unknown mode"),
    c("--autofix", "maybe", desc="error: bad autofix"),
    c("--alphabet", "BITCOIN", desc="error: alphabet names are case-sensitive"),
    *[c("--mode", "decode", "--text", s, desc="error: shell metacharacters") for s in SHELL_METAS],
    c("--hex", "$(printf ff)", desc="error: no command substitution"),
    c("--mode", "raw", "--text", "`whoami`", desc="error: backticks"),
    c("--hex", "00", "--bogus", "1", desc="usage error (exit 2), dropped by the Oracle"),
]

SAMPLE = SampleDef(
    id="base58-check",
    requirements=["base58==2.1.1"],
    program="base58_check.py",
    entry="base58_check.mjs",
    category="encoding",
    api=["base58.b58encode_check", "base58.b58decode_check", "base58.b58decode", "base58.b58decode_int"],
    args=[
        arg("mode", "str", "encode (default) | decode | raw"),
        arg("hex", "str", "payload to encode, hex digits (bytes.fromhex syntax)"),
        arg("text", "str", "Base58 text to decode"),
        arg("alphabet", "str", "bitcoin (default) | ripple"),
        arg("autofix", "str", "yes | no (default): map look-alike characters when decoding"),
    ],
    cases=CASES,
)
