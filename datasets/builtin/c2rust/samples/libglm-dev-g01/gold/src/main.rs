//! Port of libglm_dev_g01.cpp: dot, cross and length of 3-D double vectors given on the command line.
use std::io::{self, Write};
use std::os::unix::ffi::OsStringExt;

/// The whole argument read like C `strtod` (decimal or hexadecimal float); None if it is not entirely a
/// number or the value is not finite.
fn parse_number(s: &[u8]) -> Option<f64> {
    let mut i = 0;
    while i < s.len() && matches!(s[i], b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r') {
        i += 1;
    }
    let mut neg = false;
    if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
        neg = s[i] == b'-';
        i += 1;
    }
    let rest = &s[i..];
    let value = if rest.len() > 2 && rest[0] == b'0' && (rest[1] == b'x' || rest[1] == b'X') && {
        let r = &rest[2..];
        r[0].is_ascii_hexdigit() || (r[0] == b'.' && r.len() > 1 && r[1].is_ascii_hexdigit())
    } {
        parse_hex(&rest[2..])?
    } else {
        parse_decimal(rest)?
    };
    let v = if neg { -value } else { value };
    if v.is_finite() {
        Some(v)
    } else {
        None
    }
}

fn parse_decimal(r: &[u8]) -> Option<f64> {
    let mut j = 0;
    let mut digits = 0;
    while j < r.len() && r[j].is_ascii_digit() {
        j += 1;
        digits += 1;
    }
    if j < r.len() && r[j] == b'.' {
        j += 1;
        while j < r.len() && r[j].is_ascii_digit() {
            j += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return None;
    }
    let mut end = j;
    if j < r.len() && (r[j] == b'e' || r[j] == b'E') {
        let mut k = j + 1;
        if k < r.len() && (r[k] == b'+' || r[k] == b'-') {
            k += 1;
        }
        let start = k;
        while k < r.len() && r[k].is_ascii_digit() {
            k += 1;
        }
        if k > start {
            end = k;
        }
    }
    if end != r.len() {
        return None;
    }
    let mut text = String::from_utf8(r.to_vec()).ok()?;
    if text.starts_with('.') {
        text.insert(0, '0');
    }
    text = text.replace(".e", ".0e").replace(".E", ".0E");
    if text.ends_with('.') {
        text.push('0');
    }
    text.parse::<f64>().ok()
}

fn parse_hex(r: &[u8]) -> Option<f64> {
    let mut mant: u128 = 0;
    let mut exp: i64 = 0;
    let mut j = 0;
    let mut seen_point = false;
    let mut digits = 0;
    while j < r.len() {
        let c = r[j];
        if c == b'.' && !seen_point {
            seen_point = true;
        } else if let Some(d) = (c as char).to_digit(16) {
            digits += 1;
            if mant >> 120 == 0 {
                mant = mant * 16 + d as u128;
                if seen_point {
                    exp -= 4;
                }
            } else if !seen_point {
                exp += 4;
            }
        } else {
            break;
        }
        j += 1;
    }
    if digits == 0 {
        return None;
    }
    if j < r.len() && (r[j] == b'p' || r[j] == b'P') {
        let mut k = j + 1;
        let mut eneg = false;
        if k < r.len() && (r[k] == b'+' || r[k] == b'-') {
            eneg = r[k] == b'-';
            k += 1;
        }
        let start = k;
        let mut e: i64 = 0;
        while k < r.len() && r[k].is_ascii_digit() {
            e = (e * 10 + (r[k] - b'0') as i64).min(100000);
            k += 1;
        }
        if k > start {
            exp += if eneg { -e } else { e };
            j = k;
        }
    }
    if j != r.len() {
        return None;
    }
    Some((mant as f64) * 2f64.powi(exp.clamp(-2000, 2000) as i32))
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[1] * b[2] - b[1] * a[2], a[2] * b[0] - b[2] * a[0], a[0] * b[1] - b[0] * a[1]]
}

fn length(a: [f64; 3]) -> f64 {
    dot(a, a).sqrt()
}

fn main() {
    let args: Vec<Vec<u8>> = std::env::args_os().map(|a| a.into_vec()).collect();
    if args.len() != 5 && args.len() != 8 {
        eprintln!("usage: {} dot|cross|len X1 Y1 Z1 [X2 Y2 Z2]", String::from_utf8_lossy(&args[0]));
        std::process::exit(2);
    }
    let mut out = Vec::new();
    let mut v = [0.0f64; 6];
    for i in 2..args.len() {
        match parse_number(&args[i]) {
            Some(x) => v[i - 2] = x,
            None => {
                out.extend_from_slice(b"error: invalid number '");
                out.extend_from_slice(&args[i]);
                out.extend_from_slice(b"'\n");
                io::stdout().write_all(&out).unwrap();
                return;
            }
        }
    }
    let a = [v[0], v[1], v[2]];
    let b = [v[3], v[4], v[5]];
    let two = args.len() == 8;
    match args[1].as_slice() {
        b"len" => {
            out.extend_from_slice(format!("|a| = {:.6}\n", length(a)).as_bytes());
            if two {
                out.extend_from_slice(format!("|b| = {:.6}\n", length(b)).as_bytes());
            }
        }
        b"dot" => {
            if two {
                out.extend_from_slice(format!("a.b = {:.6}\n", dot(a, b)).as_bytes());
            } else {
                out.extend_from_slice(b"error: dot needs two vectors\n");
            }
        }
        b"cross" => {
            if two {
                let c = cross(a, b);
                out.extend_from_slice(format!("a x b = ({:.6}, {:.6}, {:.6})\n", c[0], c[1], c[2]).as_bytes());
                out.extend_from_slice(format!("|a x b| = {:.6}\n", length(c)).as_bytes());
            } else {
                out.extend_from_slice(b"error: cross needs two vectors\n");
            }
        }
        op => {
            out.extend_from_slice(b"error: unknown operation '");
            out.extend_from_slice(op);
            out.extend_from_slice(b"'\n");
        }
    }
    io::stdout().write_all(&out).unwrap();
}
