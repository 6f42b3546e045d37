//! bounded-join: joins the arguments into a fixed-size buffer with strlcpy/strlcat semantics.
use std::io::Write;
use std::os::unix::ffi::OsStrExt;

/// C `strtol(s, &end, 10)` followed by the program's "whole string, non-empty" check.
fn parse_size(s: &[u8]) -> Option<i64> {
    if s.is_empty() {
        return None;
    }
    let mut i = 0;
    while i < s.len() && matches!(s[i], b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') {
        i += 1;
    }
    let mut neg = false;
    if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
        neg = s[i] == b'-';
        i += 1;
    }
    let start = i;
    let mut v: i64 = 0;
    while i < s.len() && s[i].is_ascii_digit() {
        v = v.saturating_mul(10).saturating_add((s[i] - b'0') as i64);
        i += 1;
    }
    if i == start || i != s.len() {
        return None;
    }
    Some(if neg { -v } else { v })
}

/// strlcpy into a buffer of `size` bytes; returns strlen(src).
fn strlcpy(buf: &mut Vec<u8>, src: &[u8], size: usize) -> usize {
    if size > 0 {
        let n = src.len().min(size - 1);
        buf.clear();
        buf.extend_from_slice(&src[..n]);
    }
    src.len()
}

/// strlcat onto a NUL-terminated buffer of `size` bytes; returns dlen + strlen(src).
fn strlcat(buf: &mut Vec<u8>, src: &[u8], size: usize) -> usize {
    let dlen = buf.len().min(size);
    if dlen == size {
        return dlen + src.len();
    }
    let avail = size - dlen - 1;
    let n = src.len().min(avail);
    buf.extend_from_slice(&src[..n]);
    dlen + src.len()
}

fn main() {
    let args: Vec<Vec<u8>> = std::env::args_os().map(|a| a.as_bytes().to_vec()).collect();
    if args.len() < 3 {
        eprintln!("usage: libbsd_dev_g01 SIZE PART...");
        std::process::exit(2);
    }
    let mut out: Vec<u8> = Vec::new();
    let size = match parse_size(&args[1]) {
        Some(v) if (0..=4096).contains(&v) => v as usize,
        _ => {
            out.extend_from_slice(b"error: invalid buffer size '");
            out.extend_from_slice(&args[1]);
            out.extend_from_slice(b"'\n");
            let _ = std::io::stdout().write_all(&out);
            return;
        }
    };
    let mut buf: Vec<u8> = Vec::new();
    let mut truncated = false;
    for (k, part) in args[2..].iter().enumerate() {
        let want = if k == 0 { strlcpy(&mut buf, part, size) } else { strlcat(&mut buf, part, size) };
        let cut = want >= size;
        if cut {
            truncated = true;
        }
        out.extend_from_slice(if k == 0 { b"copy \"" } else { b"cat  \"" });
        out.extend_from_slice(part);
        out.extend_from_slice(format!("\": returned {}", want).as_bytes());
        if cut {
            out.extend_from_slice(b" (truncated)");
        }
        out.push(b'\n');
    }
    if size > 0 {
        out.extend_from_slice(b"result: \"");
        out.extend_from_slice(&buf);
        out.extend_from_slice(format!("\" ({} of {} bytes used)\n", buf.len(), size).as_bytes());
    } else {
        out.extend_from_slice(b"result: no buffer\n");
    }
    out.extend_from_slice(if truncated { b"status: truncated\n" } else { b"status: complete\n" });
    let _ = std::io::stdout().write_all(&out);
}
