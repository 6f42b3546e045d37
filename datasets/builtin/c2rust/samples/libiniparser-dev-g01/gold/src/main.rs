//! ini-hash: prints iniparser's dictionary hash of each key given as argument (or of each stdin line).
use std::io::{self, BufRead, Write};
use std::os::unix::ffi::OsStrExt;

/// iniparser's `dictionary_hash`: Jenkins one-at-a-time over the key's bytes taken as signed chars.
fn dictionary_hash(key: &[u8]) -> u32 {
    let mut hash: u32 = 0;
    for &b in key {
        hash = hash.wrapping_add(b as i8 as i32 as u32);
        hash = hash.wrapping_add(hash << 10);
        hash ^= hash >> 6;
    }
    hash = hash.wrapping_add(hash << 3);
    hash ^= hash >> 11;
    hash = hash.wrapping_add(hash << 15);
    hash
}

fn show(out: &mut Vec<u8>, key: &[u8], buckets: u32) {
    let h = dictionary_hash(key);
    out.extend_from_slice(key);
    for _ in key.len()..24 {
        out.push(b' ');
    }
    out.extend_from_slice(format!(" {:>10} 0x{:08x} bucket {}/{}\n", h, h, h % buckets, buckets).as_bytes());
}

fn main() {
    let args: Vec<Vec<u8>> = std::env::args_os().map(|a| a.as_bytes().to_vec()).collect();
    let mut out: Vec<u8> = Vec::new();
    let mut buckets: u32 = 128;
    let mut first = 1;
    if args.len() >= 2 && args[1].starts_with(b"--buckets=") {
        let text = &args[1][10..];
        if text.is_empty() {
            out.extend_from_slice(b"error: empty bucket count\n");
            finish(out);
            return;
        }
        let mut v: u32 = 0;
        for &c in text {
            if !(b'0'..=b'9').contains(&c) || v > 100_000_000 {
                out.extend_from_slice(b"error: invalid bucket count '");
                out.extend_from_slice(text);
                out.extend_from_slice(b"'\n");
                finish(out);
                return;
            }
            v = v.wrapping_mul(10).wrapping_add((c - b'0') as u32);
        }
        if v == 0 {
            out.extend_from_slice(b"error: bucket count must be positive\n");
            finish(out);
            return;
        }
        buckets = v;
        first = 2;
    }
    let mut count = 0;
    if args.len() > first {
        for a in &args[first..] {
            show(&mut out, a, buckets);
            count += 1;
        }
    } else {
        // fgets with a 4096-byte buffer: at most 4095 bytes per read
        let stdin = io::stdin();
        let mut data = Vec::new();
        let mut lock = stdin.lock();
        loop {
            let buf = lock.fill_buf().unwrap_or(&[]);
            if buf.is_empty() {
                break;
            }
            let n = buf.len();
            data.extend_from_slice(buf);
            lock.consume(n);
        }
        let mut pos = 0;
        while pos < data.len() {
            let mut end = pos;
            while end < data.len() && end - pos < 4095 {
                end += 1;
                if data[end - 1] == b'\n' {
                    break;
                }
            }
            let mut piece = &data[pos..end];
            pos = end;
            // strlen stops at a NUL byte
            if let Some(z) = piece.iter().position(|&c| c == 0) {
                piece = &piece[..z];
            }
            let mut n = piece.len();
            while n > 0 && (piece[n - 1] == b'\n' || piece[n - 1] == b'\r') {
                n -= 1;
            }
            show(&mut out, &piece[..n], buckets);
            count += 1;
        }
    }
    out.extend_from_slice(format!("keys: {}\n", count).as_bytes());
    finish(out);
}

fn finish(out: Vec<u8>) {
    let stdout = io::stdout();
    let mut lock = stdout.lock();
    let _ = lock.write_all(&out);
    let _ = lock.flush();
}
