"""hopscotch-setops: set algebra over two tsl::hopscotch_set<long long>, printed sorted
(libtsl-hopscotch-map-dev 2.3.0, header-only)."""

from ckit import SHELL_METAS, CSampleDef, arg, c

BIG_A = ",".join(str(i * 3) for i in range(2000))
BIG_B = ",".join(str(i * 5) for i in range(1200))
MIN, MAX = "-9223372036854775808", "9223372036854775807"

CASES = [
    c("--a", "1,2,3,4", "--b", "3,4,5", desc="basic: overlapping sets"),
    c("--a", "5,1,5,3,1", "--b", "1,3,5", desc="basic: duplicates collapse; equal sets"),
    c("--a", "10,20,30", "--b", "10,20,30,40", "--remove", "20,99", desc="basic: erase some, a subset"),
    c("--a", "", "--b", "", desc="basic: two empty sets"),
    c("--a", f"{MIN},0,{MAX}", "--b", f"{MIN},-1", desc="the most negative 64-bit integer"),
    c("--a", "1", "--b", "2", "--remove", f"{MIN},1", desc="removing the most negative integer"),
    c("--a", f"{MAX},-{MAX}", "--b", "9223372036854775808", desc="one past the largest integer"),
    c("--a", "-9223372036854775809", "--b", "1", desc="one below the smallest integer"),
    c("--a", "-5,-1,-3,0,2", "--b", "-3,-4,2", desc="negative numbers sort before positive"),
    c("--a", BIG_A, "--b", BIG_B, desc="thousands of items: multiples of 3 and 5"),
    c("--a", BIG_A, "--b", BIG_A, "--remove", BIG_B, desc="large erasure"),
    c("--a", "+7,007,-0", "--b", "7,0", desc="signs and leading zeros"),
    c("--a", "1,,2", "--b", "1", desc="an empty item is malformed"),
    c("--a", "1,2,", "--b", "1", desc="a trailing comma is malformed"),
    c("--a", "1", "--b", "1, 2", desc="a space inside an item is malformed"),
    c("--a", "1", "--b", "2", "--remove", "x", desc="malformed removal list"),
    c("--a", "0x10", "--b", "1e3", desc="hex and exponent are malformed"),
    c("--a", "１,２", "--b", "1", desc="full-width digits are malformed"),
    c("--a", "-", "--b", "+", desc="a lone sign is malformed"),
    c("--a", "1,2,3", "--b", "", desc="b empty: a is no subset"),
    c("--a", "", "--b", "1,2,3", desc="a empty: subset of anything"),
    c("--a", "1,2,3", "--b", "4,5,6", desc="disjoint sets"),
    c("--a", "1,2,3", "--b", "1,2,3", "--remove", "1,2,3", desc="remove everything"),
    c("--a", "1,2,3", "--b", "3", "--remove", "", desc="an empty removal list"),
    c("--a", "4,4,4,4", "--b", "4", "--remove", "4,4", desc="removing the same value twice"),
    c("--a", "1", "--b", "2", "--a", "3", desc="a repeated name keeps its last value"),
    *[c("--a", s, "--b", "1", desc="shell metacharacters are malformed") for s in SHELL_METAS[:3]],
    c(
        "--a",
        ",".join(str(1 << k) for k in range(63)),
        "--b",
        ",".join(str(-(1 << k)) for k in range(63)),
        desc="powers of two, positive and negative",
    ),
    c("--a", "1", desc="usage error (exit 2), dropped by the Oracle"),
]

SAMPLE = CSampleDef(
    id="hopscotch-setops",
    package="libtsl-hopscotch-map-dev",
    language="cpp",
    program="hopscotch_setops.cpp",
    category="data structures",
    api=[
        "tsl::hopscotch_set",
        "range constructor",
        "insert",
        "insert(range)",
        "erase",
        "count",
        "find",
        "size/empty",
        "operator==",
        "iteration (begin/end)",
    ],
    args=[
        arg("a", "str", "comma-separated 64-bit integers (empty: no items)", required=True),
        arg("b", "str", "comma-separated 64-bit integers (empty: no items)", required=True),
        arg("remove", "str", "comma-separated 64-bit integers erased from a before the set operations"),
    ],
    stdin="none",
    reach_files=["/usr/include/tsl/*.h"],
    cases=CASES,
)
