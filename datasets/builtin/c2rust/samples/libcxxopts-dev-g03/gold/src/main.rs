//! Port of libcxxopts_dev_g03.cpp: classifies words with cxxopts' IsTrueText, IsFalseText and SplitInteger.
use std::io::{self, Write};
use std::os::unix::ffi::OsStringExt;

fn is_true_text(w: &[u8]) -> bool {
    matches!(w, b"t" | b"T" | b"true" | b"True" | b"1")
}

fn is_false_text(w: &[u8]) -> bool {
    matches!(w, b"f" | b"F" | b"false" | b"False" | b"0")
}

/// `(-)?(0x)?([0-9a-zA-Z]+)|((0x)?0)` matched against the whole word: (negative, hex, digits).
fn split_integer(w: &[u8]) -> Option<(bool, bool, &[u8])> {
    let alnum = |s: &[u8]| !s.is_empty() && s.iter().all(|c| c.is_ascii_alphanumeric());
    let (neg, rest) = match w.first() {
        Some(b'-') => (true, &w[1..]),
        _ => (false, w),
    };
    if rest.starts_with(b"0x") && alnum(&rest[2..]) {
        return Some((neg, true, &rest[2..]));
    }
    if alnum(rest) {
        return Some((neg, false, rest));
    }
    None
}

fn main() {
    let args: Vec<Vec<u8>> = std::env::args_os().skip(1).map(|a| a.into_vec()).collect();
    let mut out = Vec::new();
    let (mut trues, mut falses, mut ints, mut others) = (0, 0, 0, 0);
    for w in &args {
        let t = is_true_text(w);
        let f = is_false_text(w);
        out.push(b'\'');
        out.extend_from_slice(w);
        out.extend_from_slice(b"':");
        if t {
            out.extend_from_slice(b" bool=true");
            trues += 1;
        }
        if f {
            out.extend_from_slice(b" bool=false");
            falses += 1;
        }
        let split = split_integer(w);
        if let Some((neg, hex, digits)) = split {
            ints += 1;
            out.extend_from_slice(
                format!(" int-shape(sign={} base={} digits=", if neg { "-" } else { "+" }, if hex { 16 } else { 10 })
                    .as_bytes(),
            );
            out.extend_from_slice(digits);
            out.push(b')');
        }
        if !t && !f && split.is_none() {
            others += 1;
            out.extend_from_slice(b" other");
        }
        out.push(b'\n');
    }
    out.extend_from_slice(
        format!("true: {}, false: {}, integer-shaped: {}, other: {}\n", trues, falses, ints, others).as_bytes(),
    );
    io::stdout().write_all(&out).unwrap();
}
