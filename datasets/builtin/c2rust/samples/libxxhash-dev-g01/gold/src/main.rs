//! Hashes a text argument with XXH32 and XXH64 (optionally seeded), whole and word by word:
//! a pure-Rust port of the libxxhash test program.

use std::io::Write;
use std::os::unix::ffi::OsStrExt;

const P32_1: u32 = 0x9E37_79B1;
const P32_2: u32 = 0x85EB_CA77;
const P32_3: u32 = 0xC2B2_AE3D;
const P32_4: u32 = 0x27D4_EB2F;
const P32_5: u32 = 0x1656_67B1;

const P64_1: u64 = 0x9E37_79B1_85EB_CA87;
const P64_2: u64 = 0xC2B2_AE3D_27D4_EB4F;
const P64_3: u64 = 0x1656_67B1_9E37_79F9;
const P64_4: u64 = 0x85EB_CA77_C2B2_AE63;
const P64_5: u64 = 0x27D4_EB2F_1656_67C5;

/// The version `XXH_versionNumber()` reports for libxxhash 0.8.1.
const VERSION: u32 = 801;

fn read32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn read64(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

fn round32(acc: u32, input: u32) -> u32 {
    acc.wrapping_add(input.wrapping_mul(P32_2)).rotate_left(13).wrapping_mul(P32_1)
}

fn xxh32(input: &[u8], seed: u32) -> u32 {
    let len = input.len();
    let mut p = 0usize;
    let mut h: u32;
    if len >= 16 {
        let mut v1 = seed.wrapping_add(P32_1).wrapping_add(P32_2);
        let mut v2 = seed.wrapping_add(P32_2);
        let mut v3 = seed;
        let mut v4 = seed.wrapping_sub(P32_1);
        while len - p >= 16 {
            v1 = round32(v1, read32(input, p));
            v2 = round32(v2, read32(input, p + 4));
            v3 = round32(v3, read32(input, p + 8));
            v4 = round32(v4, read32(input, p + 12));
            p += 16;
        }
        h = v1
            .rotate_left(1)
            .wrapping_add(v2.rotate_left(7))
            .wrapping_add(v3.rotate_left(12))
            .wrapping_add(v4.rotate_left(18));
    } else {
        h = seed.wrapping_add(P32_5);
    }
    h = h.wrapping_add(len as u32);
    while len - p >= 4 {
        h = h.wrapping_add(read32(input, p).wrapping_mul(P32_3)).rotate_left(17).wrapping_mul(P32_4);
        p += 4;
    }
    while p < len {
        h = h.wrapping_add((input[p] as u32).wrapping_mul(P32_5)).rotate_left(11).wrapping_mul(P32_1);
        p += 1;
    }
    h ^= h >> 15;
    h = h.wrapping_mul(P32_2);
    h ^= h >> 13;
    h = h.wrapping_mul(P32_3);
    h ^= h >> 16;
    h
}

fn round64(acc: u64, input: u64) -> u64 {
    acc.wrapping_add(input.wrapping_mul(P64_2)).rotate_left(31).wrapping_mul(P64_1)
}

fn merge64(h: u64, v: u64) -> u64 {
    (h ^ round64(0, v)).wrapping_mul(P64_1).wrapping_add(P64_4)
}

fn xxh64(input: &[u8], seed: u64) -> u64 {
    let len = input.len();
    let mut p = 0usize;
    let mut h: u64;
    if len >= 32 {
        let mut v1 = seed.wrapping_add(P64_1).wrapping_add(P64_2);
        let mut v2 = seed.wrapping_add(P64_2);
        let mut v3 = seed;
        let mut v4 = seed.wrapping_sub(P64_1);
        while len - p >= 32 {
            v1 = round64(v1, read64(input, p));
            v2 = round64(v2, read64(input, p + 8));
            v3 = round64(v3, read64(input, p + 16));
            v4 = round64(v4, read64(input, p + 24));
            p += 32;
        }
        h = v1
            .rotate_left(1)
            .wrapping_add(v2.rotate_left(7))
            .wrapping_add(v3.rotate_left(12))
            .wrapping_add(v4.rotate_left(18));
        h = merge64(h, v1);
        h = merge64(h, v2);
        h = merge64(h, v3);
        h = merge64(h, v4);
    } else {
        h = seed.wrapping_add(P64_5);
    }
    h = h.wrapping_add(len as u64);
    while len - p >= 8 {
        h ^= round64(0, read64(input, p));
        h = h.rotate_left(27).wrapping_mul(P64_1).wrapping_add(P64_4);
        p += 8;
    }
    if len - p >= 4 {
        h ^= (read32(input, p) as u64).wrapping_mul(P64_1);
        h = h.rotate_left(23).wrapping_mul(P64_2).wrapping_add(P64_3);
        p += 4;
    }
    while p < len {
        h ^= (input[p] as u64).wrapping_mul(P64_5);
        h = h.rotate_left(11).wrapping_mul(P64_1);
        p += 1;
    }
    h ^= h >> 33;
    h = h.wrapping_mul(P64_2);
    h ^= h >> 29;
    h = h.wrapping_mul(P64_3);
    h ^= h >> 32;
    h
}

enum SeedError {
    Invalid,
    OutOfRange,
}

/// A decimal or `0x`/`0X`-prefixed hexadecimal unsigned 64-bit number.
fn parse_seed(s: &[u8]) -> Result<u64, SeedError> {
    let (digits, base) = if s.len() >= 2 && s[0] == b'0' && (s[1] == b'x' || s[1] == b'X') {
        (&s[2..], 16u64)
    } else {
        (s, 10u64)
    };
    if digits.is_empty() {
        return Err(SeedError::Invalid);
    }
    let mut v: u64 = 0;
    for &c in digits {
        let d = match c {
            b'0'..=b'9' => (c - b'0') as u64,
            b'a'..=b'f' if base == 16 => (c - b'a' + 10) as u64,
            b'A'..=b'F' if base == 16 => (c - b'A' + 10) as u64,
            _ => return Err(SeedError::Invalid),
        };
        if v > (u64::MAX - d) / base {
            return Err(SeedError::OutOfRange);
        }
        v = v * base + d;
    }
    Ok(v)
}

fn main() {
    let args: Vec<Vec<u8>> = std::env::args_os().map(|a| a.as_bytes().to_vec()).collect();
    if args.len() < 2 || args.len() > 3 {
        eprintln!("usage: {} TEXT [SEED]", String::from_utf8_lossy(&args[0]));
        std::process::exit(2);
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let text = &args[1];
    let mut seed: u64 = 0;
    if args.len() == 3 {
        match parse_seed(&args[2]) {
            Ok(v) => seed = v,
            Err(e) => {
                let what = match e {
                    SeedError::Invalid => "invalid seed",
                    SeedError::OutOfRange => "seed out of range",
                };
                out.write_all(format!("error: {} '", what).as_bytes()).unwrap();
                out.write_all(&args[2]).unwrap();
                out.write_all(b"'\n").unwrap();
                return;
            }
        }
    }
    let seed32 = seed as u32;
    writeln!(out, "xxhash {}.{}.{}", VERSION / 10000, VERSION / 100 % 100, VERSION % 100).unwrap();
    writeln!(out, "length: {}", text.len()).unwrap();
    writeln!(out, "seed: {} (xxh32 uses {})", seed, seed32).unwrap();
    writeln!(out, "xxh32: {:08x}", xxh32(text, seed32)).unwrap();
    writeln!(out, "xxh64: {:016x}", xxh64(text, seed)).unwrap();

    let mut count = 0;
    let mut i = 0;
    let len = text.len();
    while i < len {
        while i < len && (text[i] == b' ' || text[i] == b'\t') {
            i += 1;
        }
        if i >= len {
            break;
        }
        let start = i;
        while i < len && text[i] != b' ' && text[i] != b'\t' {
            i += 1;
        }
        let word = &text[start..i];
        count += 1;
        out.write_all(format!("word {}: \"", count).as_bytes()).unwrap();
        out.write_all(word).unwrap();
        writeln!(out, "\" xxh32={:08x} xxh64={:016x}", xxh32(word, seed32), xxh64(word, seed)).unwrap();
    }
    writeln!(out, "words: {}", count).unwrap();
}
