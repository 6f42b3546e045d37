//! field-fit: encodes each TEXT as one quoted CSV field into a fixed SIZE-byte buffer (libcsv's
//! `csv_write` semantics) and reports how much fitted.

use std::io::Write;
use std::os::unix::ffi::OsStrExt;

/// `csv_write(dest, dest_size, src, src_size)`: returns the full encoded length and fills `dest` with
/// the first `min(dest.len(), length)` bytes of `"` + src (each `"` doubled) + `"`.
fn csv_write(dest: &mut [u8], src: &[u8]) -> usize {
    let mut encoded = Vec::with_capacity(src.len() + 2);
    encoded.push(b'"');
    for &c in src {
        if c == b'"' {
            encoded.push(b'"');
        }
        encoded.push(c);
    }
    encoded.push(b'"');
    let n = encoded.len().min(dest.len());
    dest[..n].copy_from_slice(&encoded[..n]);
    encoded.len()
}

/// C `strtol(s, &end, 10)` with the program's checks: leading whitespace, optional sign, digits, the
/// whole string consumed, non-empty. Returns None when the string is not a complete number.
fn parse_long(s: &[u8]) -> Option<i128> {
    let mut i = 0;
    while i < s.len() && matches!(s[i], b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) {
        i += 1;
    }
    let mut neg = false;
    if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
        neg = s[i] == b'-';
        i += 1;
    }
    let start = i;
    let mut value: i128 = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        if value < (1i128 << 70) {
            value = value * 10 + (s[i] - b'0') as i128;
        }
        i += 1;
    }
    if i == start || i != s.len() {
        return None;
    }
    // strtol clamps to LONG_MIN/LONG_MAX on overflow: either way out of the accepted range
    Some(if neg { -value } else { value })
}

fn show(out: &mut Vec<u8>, bytes: &[u8]) {
    for &c in bytes {
        if c == b'\\' {
            out.extend_from_slice(b"\\\\");
        } else if c < 0x20 || c == 0x7f {
            out.extend_from_slice(format!("\\x{:02x}", c).as_bytes());
        } else {
            out.push(c);
        }
    }
}

fn main() {
    let args: Vec<Vec<u8>> = std::env::args_os().map(|a| a.as_bytes().to_vec()).collect();
    if args.len() < 3 {
        eprintln!("usage: {} SIZE TEXT...", String::from_utf8_lossy(&args[0]));
        std::process::exit(2);
    }
    let mut out: Vec<u8> = Vec::new();
    let size = match parse_long(&args[1]) {
        Some(v) if (0..=1024).contains(&v) => v as usize,
        _ => {
            out.extend_from_slice(b"error: invalid buffer size '");
            out.extend_from_slice(&args[1]);
            out.extend_from_slice(b"'\n");
            std::io::stdout().write_all(&out).unwrap();
            return;
        }
    };
    let mut buf = vec![b'.'; size];
    let mut fitted = 0;
    for (i, text) in args[2..].iter().enumerate() {
        for b in buf.iter_mut() {
            *b = b'.';
        }
        let need = csv_write(&mut buf, text);
        let wrote = need.min(size);
        out.extend_from_slice(
            format!("field {}: {} bytes in, {} needed, {} written: [", i + 1, text.len(), need, wrote).as_bytes(),
        );
        show(&mut out, &buf[..wrote]);
        out.push(b']');
        if need > size {
            out.extend_from_slice(b" (truncated)");
        } else {
            fitted += 1;
        }
        out.push(b'\n');
    }
    out.extend_from_slice(format!("{} of {} fields fit in {} bytes\n", fitted, args.len() - 2, size).as_bytes());
    std::io::stdout().write_all(&out).unwrap();
}
