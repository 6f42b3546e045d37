//! inih-readers in Rust: one INI text through ini_parse_string, ini_parse_file (fgets on stdin) or
//! ini_parse_stream with a chunked reader; a handler that refuses the --reject name.

mod ini;

use std::io::{Read, Write};

fn usage(why: &str) -> ! {
    eprintln!("usage error: {why}");
    std::process::exit(2);
}

/// strtol(s, &end, 10) with *end == '\0' required, limited to 1..=1000.
fn parse_chunk(s: &[u8]) -> Option<usize> {
    let mut i = s.iter().take_while(|b| matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')).count();
    let negative = s.get(i) == Some(&b'-');
    if matches!(s.get(i), Some(b'+' | b'-')) {
        i += 1;
    }
    let digits = &s[i..];
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let value = digits.iter().try_fold(0usize, |acc, d| acc.checked_mul(10)?.checked_add((d - b'0') as usize));
    match value {
        Some(v) if !negative && (1..=1000).contains(&v) => Some(v),
        _ => None,
    }
}

fn main() {
    let args: Vec<Vec<u8>> = std::env::args_os().skip(1).map(|a| a.into_encoded_bytes()).collect();
    let (mut mode, mut chunk, mut reject): (&[u8], &[u8], Option<&[u8]>) = (b"string", b"16", None);
    for pair in args.chunks(2) {
        if pair.len() < 2 {
            usage("a --name needs a value");
        }
        match pair[0].as_slice() {
            b"--mode" => mode = &pair[1],
            b"--chunk" => chunk = &pair[1],
            b"--reject" => reject = Some(&pair[1]),
            _ => usage("unknown argument (known: --mode, --chunk, --reject)"),
        }
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let Some(chunk) = parse_chunk(chunk) else {
        writeln!(out, "error: --chunk must be an integer from 1 to 1000").unwrap();
        return;
    };
    let mut data = Vec::new();
    let lines = match mode {
        b"file" => {
            std::io::stdin().read_to_end(&mut data).unwrap();
            ini::split_lines(&data, ini::MAX_LINE - 1)
        }
        b"string" => {
            std::io::stdin().take(65535).read_to_end(&mut data).unwrap();
            let end = data.iter().position(|&b| b == 0).unwrap_or(data.len());
            ini::split_lines(&data[..end], ini::MAX_LINE - 1)
        }
        b"stream" => {
            std::io::stdin().take(65535).read_to_end(&mut data).unwrap();
            ini::split_lines(&data, chunk.min(ini::MAX_LINE - 1))
        }
        _ => {
            writeln!(out, "error: --mode must be string, file or stream").unwrap();
            return;
        }
    };
    let mut calls = 0;
    let error = ini::parse_lines(lines, |section, name, value| {
        calls += 1;
        let ok = reject != Some(name);
        write!(out, "{calls}: [").unwrap();
        for part in [section, b"] ", name, b" = ", value] {
            out.write_all(part).unwrap();
        }
        out.write_all(if ok { b"\n" } else { b" (rejected)\n" }).unwrap();
        ok
    });
    writeln!(out, "calls: {calls}\nerror line: {error}").unwrap();
}
