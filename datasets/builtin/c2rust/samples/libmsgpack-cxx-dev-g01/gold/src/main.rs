//! Encodes each argument as a MessagePack value (integer, float, bool or string) and prints the bytes in hex.
//! Pure-Rust port of the msgpack-c (C++) test program.

use std::io::Write;
use std::os::unix::ffi::OsStrExt;

/// Shortest MessagePack form of an unsigned value.
fn pack_u64(out: &mut Vec<u8>, v: u64) {
    if v < 128 {
        out.push(v as u8);
    } else if v < 256 {
        out.push(0xcc);
        out.push(v as u8);
    } else if v < 65536 {
        out.push(0xcd);
        out.extend_from_slice(&(v as u16).to_be_bytes());
    } else if v <= 0xffff_ffff {
        out.push(0xce);
        out.extend_from_slice(&(v as u32).to_be_bytes());
    } else {
        out.push(0xcf);
        out.extend_from_slice(&v.to_be_bytes());
    }
}

/// Shortest MessagePack form of a signed value (non-negative values use the unsigned forms).
fn pack_i64(out: &mut Vec<u8>, v: i64) {
    if v >= 0 {
        pack_u64(out, v as u64);
    } else if v >= -32 {
        out.push(v as i8 as u8);
    } else if v >= -128 {
        out.push(0xd0);
        out.push(v as i8 as u8);
    } else if v >= -32768 {
        out.push(0xd1);
        out.extend_from_slice(&(v as i16).to_be_bytes());
    } else if v >= -2147483648 {
        out.push(0xd2);
        out.extend_from_slice(&(v as i32).to_be_bytes());
    } else {
        out.push(0xd3);
        out.extend_from_slice(&v.to_be_bytes());
    }
}

/// msgpack-c's pack_double: integral values become integers, everything else float64.
fn pack_f64(out: &mut Vec<u8>, d: f64) {
    const TWO64: f64 = 18446744073709551616.0;
    const TWO63: f64 = 9223372036854775808.0;
    if !d.is_nan() {
        if d >= 0.0 && d < TWO64 && d.trunc() == d {
            pack_u64(out, d as u64);
            return;
        } else if d < 0.0 && d >= -TWO63 && d.trunc() == d {
            pack_i64(out, d as i64);
            return;
        }
    }
    out.push(0xcb);
    out.extend_from_slice(&d.to_bits().to_be_bytes());
}

fn pack_str(out: &mut Vec<u8>, s: &[u8]) {
    let n = s.len();
    if n < 32 {
        out.push(0xa0 | n as u8);
    } else if n < 256 {
        out.push(0xd9);
        out.push(n as u8);
    } else if n < 65536 {
        out.push(0xda);
        out.extend_from_slice(&(n as u16).to_be_bytes());
    } else {
        out.push(0xdb);
        out.extend_from_slice(&(n as u32).to_be_bytes());
    }
    out.extend_from_slice(s);
}

enum IntVal {
    Signed(i64),
    Unsigned(u64),
}

fn parse_int(s: &[u8]) -> Option<IntVal> {
    if s.is_empty() {
        return None;
    }
    if s[0] != b'-' {
        if !s.iter().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let txt = std::str::from_utf8(s).ok()?;
        let u: u64 = txt.parse().ok()?;
        if u > i64::MAX as u64 {
            Some(IntVal::Unsigned(u))
        } else {
            Some(IntVal::Signed(u as i64))
        }
    } else {
        if s.len() < 2 || !s[1..].iter().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let txt = std::str::from_utf8(s).ok()?;
        let v: i64 = txt.parse().ok()?;
        Some(IntVal::Signed(v))
    }
}

fn parse_float(s: &[u8]) -> Option<f64> {
    if !s.iter().any(|&b| b == b'.' || b == b'e' || b == b'E') {
        return None;
    }
    if !s.iter().all(|&b| b"0123456789+-.eE".contains(&b)) {
        return None;
    }
    let txt = std::str::from_utf8(s).ok()?;
    txt.parse::<f64>().ok()
}

fn main() {
    let args: Vec<Vec<u8>> = std::env::args_os().skip(1).map(|a| a.as_bytes().to_vec()).collect();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut total = 0usize;
    for a in &args {
        let mut buf = Vec::new();
        let kind: &str;
        if let Some(v) = parse_int(a) {
            match v {
                IntVal::Signed(x) => pack_i64(&mut buf, x),
                IntVal::Unsigned(u) => pack_u64(&mut buf, u),
            }
            kind = "int";
        } else if a.as_slice() == b"true" || a.as_slice() == b"false" {
            buf.push(if a[0] == b't' { 0xc3 } else { 0xc2 });
            kind = "bool";
        } else if let Some(d) = parse_float(a) {
            pack_f64(&mut buf, d);
            kind = "float";
        } else {
            pack_str(&mut buf, a);
            kind = "str";
        }
        write!(out, "{:<5} ", kind).unwrap();
        out.write_all(a).unwrap();
        out.write_all(b" ->").unwrap();
        for b in &buf {
            write!(out, " {:02x}", b).unwrap();
        }
        writeln!(out, " ({} bytes)", buf.len()).unwrap();
        total += buf.len();
    }
    writeln!(out, "total: {} bytes for {} values", total, args.len()).unwrap();
}
