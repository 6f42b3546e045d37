// Quotes each argument as a JSON string literal the way RapidJSON's Writer does (modes: utf8, ascii).
use std::io::Write;
use std::os::unix::ffi::OsStrExt;

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// The escape RapidJSON's Writer uses for a byte, if any (0 = none).
fn escape_of(b: u8) -> u8 {
    match b {
        0x08 => b'b',
        0x09 => b't',
        0x0A => b'n',
        0x0C => b'f',
        0x0D => b'r',
        0x00..=0x1F => b'u',
        b'"' => b'"',
        b'\\' => b'\\',
        _ => 0,
    }
}

/// Strict UTF-8 decoding of one sequence starting at `s[i]` (RapidJSON's UTF8::Decode); bytes past the end
/// read as NUL, which never continues a sequence. Returns the code point and the bytes used, or None.
fn decode(s: &[u8], i: usize) -> Option<(u32, usize)> {
    let at = |k: usize| -> u8 { if k < s.len() { s[k] } else { 0 } };
    let c = at(i);
    let cont = |b: u8, lo: u8, hi: u8| b >= lo && b <= hi;
    let (len, init, lo, hi) = match c {
        0x00..=0x7F => return Some((c as u32, 1)),
        0xC2..=0xDF => (2, (c & 0x1F) as u32, 0x80, 0xBF),
        0xE0 => (3, (c & 0x0F) as u32, 0xA0, 0xBF),
        0xE1..=0xEC | 0xEE..=0xEF => (3, (c & 0x0F) as u32, 0x80, 0xBF),
        0xED => (3, (c & 0x0F) as u32, 0x80, 0x9F),
        0xF0 => (4, (c & 0x07) as u32, 0x90, 0xBF),
        0xF1..=0xF3 => (4, (c & 0x07) as u32, 0x80, 0xBF),
        0xF4 => (4, (c & 0x07) as u32, 0x80, 0x8F),
        _ => return None,
    };
    let mut cp = init;
    let mut ok = true;
    for k in 1..len {
        let b = at(i + k);
        let (l, h) = if k == 1 { (lo, hi) } else { (0x80, 0xBF) };
        if !cont(b, l, h) {
            ok = false;
        }
        cp = (cp << 6) | (b & 0x3F) as u32;
    }
    if ok {
        Some((cp, len))
    } else {
        None
    }
}

fn push_hex4(out: &mut Vec<u8>, v: u32) {
    out.push(b'\\');
    out.push(b'u');
    for shift in [12, 8, 4, 0] {
        out.push(HEX[((v >> shift) & 15) as usize]);
    }
}

/// Writes `s` as a JSON string; None when the mode finds an invalid UTF-8 sequence.
fn quote(s: &[u8], mode: u8) -> Option<Vec<u8>> {
    let mut out = vec![b'"'];
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if mode == b'a' && c >= 0x80 {
            let (cp, used) = decode(s, i)?;
            if cp <= 0xFFFF {
                push_hex4(&mut out, cp);
            } else {
                let v = cp - 0x10000;
                push_hex4(&mut out, (v >> 10) + 0xD800);
                push_hex4(&mut out, (v & 0x3FF) + 0xDC00);
            }
            i += used;
            continue;
        }
        let e = escape_of(c);
        if e != 0 {
            out.push(b'\\');
            out.push(e);
            if e == b'u' {
                out.push(b'0');
                out.push(b'0');
                out.push(HEX[(c >> 4) as usize]);
                out.push(HEX[(c & 15) as usize]);
            }
            i += 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out.push(b'"');
    Some(out)
}

fn main() {
    let args: Vec<Vec<u8>> = std::env::args_os().map(|a| a.as_bytes().to_vec()).collect();
    if args.len() < 2 {
        eprintln!("usage: {} utf8|ascii [STRING...]", String::from_utf8_lossy(&args[0]));
        std::process::exit(2);
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mode = &args[1];
    let m = match mode.as_slice() {
        b"utf8" => b'u',
        b"ascii" => b'a',
        _ => {
            out.write_all(b"error: unknown mode '").unwrap();
            out.write_all(mode).unwrap();
            out.write_all(b"'\n").unwrap();
            return;
        }
    };
    let mut failed = 0;
    for (k, arg) in args.iter().enumerate().skip(2) {
        match quote(arg, m) {
            Some(text) => {
                write!(out, "{}: ", k - 1).unwrap();
                out.write_all(&text).unwrap();
                out.write_all(b"\n").unwrap();
            }
            None => {
                writeln!(out, "error: argument {} is not valid UTF-8", k - 1).unwrap();
                failed += 1;
            }
        }
    }
    writeln!(out, "{} strings, {} rejected", args.len() - 2, failed).unwrap();
}
