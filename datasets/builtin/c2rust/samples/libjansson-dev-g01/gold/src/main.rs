//! Encodes text arguments as JSON string literals (with optional ASCII-only and slash escaping).
//! Pure-Rust port of the jansson json_stringn + json_dumpb test program.

use std::io::Write;
use std::os::unix::ffi::OsStrExt;

const ENSURE_ASCII: u32 = 1;
const ESCAPE_SLASH: u32 = 2;
const BUFFER: usize = 8192;

fn is_hex(b: u8) -> bool {
    b.is_ascii_hexdigit()
}

fn hex_val(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        _ => b - b'A' + 10,
    }
}

/// Decodes `\\` and `\xHH` escapes into raw bytes.
fn decode_arg(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'\\' && i + 1 < s.len() && s[i + 1] == b'\\' {
            out.push(b'\\');
            i += 2;
        } else if s[i] == b'\\'
            && i + 3 < s.len()
            && s[i + 1] == b'x'
            && is_hex(s[i + 2])
            && is_hex(s[i + 3])
        {
            out.push(hex_val(s[i + 2]) * 16 + hex_val(s[i + 3]));
            i += 4;
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
    out
}

/// Encodes a valid UTF-8 string as a JSON string literal the way jansson's dumper does.
fn encode(s: &str, flags: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len() + 2);
    out.push(b'"');
    for ch in s.chars() {
        let cp = ch as u32;
        match ch {
            '\\' => out.extend_from_slice(b"\\\\"),
            '"' => out.extend_from_slice(b"\\\""),
            '\u{8}' => out.extend_from_slice(b"\\b"),
            '\u{c}' => out.extend_from_slice(b"\\f"),
            '\n' => out.extend_from_slice(b"\\n"),
            '\r' => out.extend_from_slice(b"\\r"),
            '\t' => out.extend_from_slice(b"\\t"),
            '/' if flags & ESCAPE_SLASH != 0 => out.extend_from_slice(b"\\/"),
            _ if cp < 0x20 || (flags & ENSURE_ASCII != 0 && cp > 0x7f) => {
                if cp < 0x10000 {
                    out.extend_from_slice(format!("\\u{:04X}", cp).as_bytes());
                } else {
                    let v = cp - 0x10000;
                    let hi = 0xD800 | ((v >> 10) & 0x3ff);
                    let lo = 0xDC00 | (v & 0x3ff);
                    out.extend_from_slice(format!("\\u{:04X}\\u{:04X}", hi, lo).as_bytes());
                }
            }
            _ => {
                let mut buf = [0u8; 4];
                out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
    out.push(b'"');
    out
}

fn main() {
    let args: Vec<Vec<u8>> = std::env::args_os().map(|a| a.as_bytes().to_vec()).collect();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.len() < 2 {
        let prog = String::from_utf8_lossy(&args[0]).into_owned();
        eprintln!("usage: {} FLAGS [TEXT...]", prog);
        std::process::exit(2);
    }
    let mut flags = 0u32;
    let f = &args[1];
    if f.as_slice() != b"-" {
        let limited = &f[..f.len().min(255)];
        for tok in limited.split(|&b| b == b',').filter(|t| !t.is_empty()) {
            if tok == b"ascii" {
                flags |= ENSURE_ASCII;
            } else if tok == b"slash" {
                flags |= ESCAPE_SLASH;
            } else {
                out.write_all(b"error: unknown flag '").unwrap();
                out.write_all(tok).unwrap();
                out.write_all(b"'\n").unwrap();
                return;
            }
        }
    }
    let mut ok = 0;
    let mut bad = 0;
    for (i, arg) in args.iter().enumerate().skip(2) {
        let n = i - 1;
        let raw = decode_arg(arg);
        match std::str::from_utf8(&raw) {
            Err(_) => {
                writeln!(out, "{}: error: invalid UTF-8", n).unwrap();
                bad += 1;
            }
            Ok(s) => {
                let enc = encode(s, flags);
                if enc.len() > BUFFER {
                    writeln!(out, "{}: error: encoding failed", n).unwrap();
                    bad += 1;
                } else {
                    write!(out, "{}: ", n).unwrap();
                    out.write_all(&enc).unwrap();
                    writeln!(out, " ({} bytes in, {} bytes out)", raw.len(), enc.len()).unwrap();
                    ok += 1;
                }
            }
        }
    }
    writeln!(out, "encoded: {}, rejected: {}", ok, bad).unwrap();
}
