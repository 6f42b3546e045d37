"""The Rust rules of the static cheat scan, one tree per rule (no cargo needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from repozero.oracle.cheats import scan_target
from repozero.oracle.rust_cheats import strip_rust_comments

CARGO = '[package]\nname = "t"\nversion = "0.1.0"\nedition = "2021"\n'
CLEAN = 'fn main() {\n    let s = "a;b"; // process::Command in a comment\n    println!("{s}");\n}\n'


def _tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in {"Cargo.toml": CARGO, "src/main.rs": CLEAN, **files}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_a_clean_crate_has_no_flags(tmp_path: Path) -> None:
    big = _tree(
        tmp_path,
        {"target/release/build/x/out/lib.rs": 'extern "C" { fn f(); }', "src/a.rs": "/* extern { } */"},
    )
    assert scan_target(big) == []


@pytest.mark.parametrize(
    ("files", "flag"),
    [
        ({"Cargo.toml": CARGO + '[dependencies]\nrand = "0.8"\n'}, "external_dependency:dependencies"),
        ({"Cargo.toml": CARGO + '[dependencies.serde]\nversion = "1"\n'}, "external_dependency:dependencies"),
        ({"Cargo.toml": CARGO + '[dev-dependencies]\nx = "1"\n'}, "external_dependency:dev-dependencies"),
        (
            {"Cargo.toml": CARGO + "[target.'cfg(unix)'.dependencies]\nlibc = \"0.2\"\n"},
            "external_dependency:target.cfg(unix).dependencies",
        ),
        (
            {"Cargo.toml": CARGO + '[workspace.dependencies]\nx = "1"\n'},
            "external_dependency:workspace.dependencies",
        ),
        ({"Cargo.toml": CARGO + '[patch.crates-io]\nx = { path = "../x" }\n'}, "cargo_patch:Cargo.toml"),
        (
            {"Cargo.toml": CARGO.replace('edition = "2021"', 'edition = "2021"\nbuild = "gen.rs"')},
            "build_script:Cargo.toml",
        ),
        (
            {"Cargo.toml": CARGO.replace('edition = "2021"', 'edition = "2021"\nlinks = "cjson"')},
            "ffi_links:Cargo.toml",
        ),
        ({"build.rs": "fn main() {}"}, "build_script:build.rs"),
        ({".cargo/config.toml": "[build]\nrustflags = []\n"}, "cargo_config:.cargo/config.toml"),
        ({"sub/.cargo/config": "[build]\n"}, "cargo_config:sub/.cargo/config"),
        ({"vendor/x/lib.rs": "pub fn f() {}"}, "vendor:vendor"),
        ({"src/ffi.rs": 'extern "C" {\n    fn cJSON_Parse(v: *const u8) -> *mut u8;\n}'}, "ffi_extern_block"),
        ({"src/ffi.rs": "extern {\n    fn abs(x: i32) -> i32;\n}"}, "ffi_extern_block"),
        ({"src/ffi.rs": '#[link(name = "cjson")]\nunsafe extern "C" {}'}, "ffi_link"),
        ({"src/ffi.rs": '#[link_name = "abs"]\nfn x() {}'}, "ffi_link_name"),
        ({"src/run.rs": "use std::process::{Command, Stdio};"}, "process_command"),
        ({"src/run.rs": 'fn f() { std::process::Command::new("g++"); }'}, "process_command"),
        ({"src/run.rs": "use std::process::Command as C;"}, "process_command"),
        ({"src/asm.rs": 'fn f() { unsafe { core::arch::asm!("nop") } }'}, "inline_asm"),
        (
            {"src/inc.rs": 'const H: &str = include_str!("/usr/include/cjson/cJSON.h");'},
            "outside_include:/usr/include/cjson/cJSON.h",
        ),
        ({"src/inc.rs": 'const H: &[u8] = include_bytes!("../../secret");'}, "outside_include:../../secret"),
        (
            {"src/inc.rs": 'const H: &str = include_str!(concat!(env!("HOME"), "/x"));'},
            "outside_include:computed",
        ),
        (
            {"src/read.rs": 'fn f() { std::fs::read("/usr/lib/x86_64-linux-gnu/libcjson.so.1"); }'},
            "outside_path:/usr/lib/x86_64-linux-gnu/libcjson.so.1",
        ),
    ],
)
def test_each_rule_flags(tmp_path: Path, files: dict[str, str], flag: str) -> None:
    assert flag in scan_target(_tree(tmp_path, files))


def test_includes_inside_the_repository_are_fine(tmp_path: Path) -> None:
    tree = _tree(
        tmp_path, {"src/inc.rs": 'const T: &str = include_str!("../data/table.txt");', "data/table.txt": "x"}
    )
    assert scan_target(tree) == []


def test_comment_stripping_keeps_strings_and_chars() -> None:
    code = (
        "let a = \"// x\"; let c = '\"'; let q = '\\''; /* outer /* nested */ still */ fn f<'a>() {} // gone"
    )
    assert strip_rust_comments(code) == "let a = \"// x\"; let c = '\"'; let q = '\\'';  fn f<'a>() {} "
