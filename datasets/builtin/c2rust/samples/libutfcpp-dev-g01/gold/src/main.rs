//! UTF-8 validator: checks every line of stdin the way utfcpp 3.2.3 does and lists the byte offsets where
//! invalid sequences start — a pure-Rust port of the utfcpp test program.

use std::io::{Read, Write};

/// Whether the sequence starting at `p` decodes (utfcpp's `validate_next`); on success, its length.
fn validate_next(s: &[u8], p: usize) -> Option<usize> {
    let lead = s[p];
    let len = if lead < 0x80 {
        1
    } else if lead >> 5 == 0x6 {
        2
    } else if lead >> 4 == 0xE {
        3
    } else if lead >> 3 == 0x1E {
        4
    } else {
        return None; // invalid lead
    };
    let mut cp: u32 = match len {
        1 => lead as u32,
        2 => (lead & 0x1F) as u32,
        3 => (lead & 0x0F) as u32,
        _ => (lead & 0x07) as u32,
    };
    for k in 1..len {
        let b = *s.get(p + k)?; // not enough room
        if b >> 6 != 0x2 {
            return None; // incomplete sequence
        }
        cp = (cp << 6) | (b & 0x3F) as u32;
    }
    if cp > 0x10FFFF || (0xD800..=0xDFFF).contains(&cp) {
        return None; // invalid code point
    }
    let overlong = if cp < 0x80 {
        len != 1
    } else if cp < 0x800 {
        len != 2
    } else if cp < 0x10000 {
        len != 3
    } else {
        false
    };
    if overlong {
        return None;
    }
    Some(len)
}

/// utfcpp's `find_invalid`: the offset where the first undecodable sequence starts.
fn find_invalid(s: &[u8]) -> Option<usize> {
    let mut p = 0;
    while p < s.len() {
        match validate_next(s, p) {
            Some(n) => p += n,
            None => return Some(p),
        }
    }
    None
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 1 {
        eprintln!("usage: {} < text", args[0]);
        std::process::exit(2);
    }
    let mut input = Vec::new();
    std::io::stdin().read_to_end(&mut input).unwrap();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();

    let (mut line_no, mut valid_lines, mut bad_total) = (0usize, 0usize, 0usize);
    let mut pos = 0;
    while pos < input.len() {
        let stop = input[pos..].iter().position(|&b| b == b'\n').map_or(input.len(), |i| pos + i);
        let line = &input[pos..stop];
        line_no += 1;
        let mut offsets = String::new();
        let (mut count, mut from) = (0usize, 0usize);
        while from <= line.len() {
            let bad = match find_invalid(&line[from..]) {
                Some(b) => b,
                None => break,
            };
            let at = from + bad;
            if count < 10 {
                if count > 0 {
                    offsets.push(' ');
                }
                offsets.push_str(&format!("{}(0x{:02x})", at, line[at]));
            }
            count += 1;
            from = at + 1;
        }
        if count == 0 {
            valid_lines += 1;
            writeln!(out, "{}: ok, {} bytes", line_no, line.len()).unwrap();
        } else {
            bad_total += count;
            writeln!(
                out,
                "{}: invalid, {} bad sequence start{}: {}{}",
                line_no,
                count,
                if count == 1 { "" } else { "s" },
                offsets,
                if count > 10 { " ..." } else { "" }
            )
            .unwrap();
        }
        pos = stop + 1;
    }
    let first = find_invalid(&input);
    writeln!(
        out,
        "lines: {}, valid: {}, invalid: {}, bad sequence starts: {}",
        line_no,
        valid_lines,
        line_no - valid_lines,
        bad_total
    )
    .unwrap();
    match first {
        None => writeln!(out, "first invalid byte: none").unwrap(),
        Some(f) => writeln!(out, "first invalid byte: {}", f).unwrap(),
    }
    writeln!(out, "whole input valid: {}", if first.is_none() { "yes" } else { "no" }).unwrap();
}
