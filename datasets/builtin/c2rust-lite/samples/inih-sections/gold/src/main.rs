//! inih-sections in Rust: ini_parse_string on stdin, entries printed all or for one section.

mod ini;

use std::io::{Read, Write};

fn main() {
    let args: Vec<Vec<u8>> = std::env::args_os().skip(1).map(|a| a.into_encoded_bytes()).collect();
    let mut wanted: Option<Vec<u8>> = None;
    for pair in args.chunks(2) {
        if pair.len() < 2 || pair[0] != b"--section" {
            eprintln!("usage error: the only argument is --section NAME");
            std::process::exit(2);
        }
        wanted = Some(pair[1].clone());
    }
    let mut text = Vec::new();
    std::io::stdin().take(65535).read_to_end(&mut text).unwrap();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let (mut total, mut shown) = (0, 0);
    let error = ini::parse_string(&text, |section, name, value| {
        total += 1;
        if wanted.as_deref().is_none_or(|w| w == section) {
            shown += 1;
            for part in [b"[", section, b"] ", name, b" = ", value, b"\n"] {
                out.write_all(part).unwrap();
            }
        }
        true
    });
    writeln!(out, "shown: {shown} of {total}\nerror line: {error}").unwrap();
}
