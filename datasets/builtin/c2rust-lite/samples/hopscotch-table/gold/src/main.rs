//! A command script over one hopscotch map (a port of the hopscotch_table test program over
//! tsl::hopscotch_map<long long, long long>): one command per stdin line, one numbered result line each.

mod hopscotch;

use hopscotch::HopscotchMap;
use std::io::{Read, Write};
use std::process::exit;

type Outcome = Result<String, String>;

/// `[+-]?[0-9]+` fitting a signed 64-bit integer.
fn parse_int(s: &[u8]) -> Result<i64, String> {
    let bad = || "bad number".to_string();
    let (negative, digits) = match s.first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() {
        return Err(bad());
    }
    let limit: u64 = if negative { 1 << 63 } else { i64::MAX as u64 };
    let mut value: u64 = 0;
    for &c in digits {
        if !c.is_ascii_digit() {
            return Err(bad());
        }
        let digit = u64::from(c - b'0');
        if value > (limit - digit) / 10 {
            return Err(bad());
        }
        value = value * 10 + digit;
    }
    Ok(if negative { 0u64.wrapping_sub(value) as i64 } else { value as i64 })
}

fn parse_count(s: &[u8], max: i64) -> Result<i64, String> {
    let n = parse_int(s)?;
    if n < 0 || n > max {
        return Err("out of range".to_string());
    }
    Ok(n)
}

fn need(t: &[&[u8]], n: usize) -> Result<(), String> {
    if t.len() == n + 1 {
        Ok(())
    } else {
        Err(format!("expected {} argument{}", n, if n == 1 { "" } else { "s" }))
    }
}

fn pairs(items: impl Iterator<Item = (i64, i64)>) -> String {
    let text: Vec<String> = items.map(|(k, v)| format!("{k}={v}")).collect();
    if text.is_empty() {
        "(empty)".to_string()
    } else {
        text.join(" ")
    }
}

fn run(map: &mut HopscotchMap, t: &[&[u8]]) -> Outcome {
    match t[0] {
        b"insert" => {
            need(t, 2)?;
            let k = parse_int(t[1])?;
            let v = parse_int(t[2])?;
            Ok(match map.insert(k, v) {
                Ok(()) => "inserted".to_string(),
                Err(old) => format!("exists {old}"),
            })
        }
        b"set" => {
            need(t, 2)?;
            let k = parse_int(t[1])?;
            let v = parse_int(t[2])?;
            Ok(if map.insert_or_assign(k, v) { "inserted" } else { "assigned" }.to_string())
        }
        b"get" => {
            need(t, 1)?;
            Ok(map.get(parse_int(t[1])?).map_or("missing".to_string(), |v| v.to_string()))
        }
        b"count" => {
            need(t, 1)?;
            Ok(usize::from(map.get(parse_int(t[1])?).is_some()).to_string())
        }
        b"erase" => {
            need(t, 1)?;
            Ok(map.erase(parse_int(t[1])?).to_string())
        }
        b"size" => need(t, 0).map(|_| map.len().to_string()),
        b"buckets" => need(t, 0).map(|_| map.bucket_count().to_string()),
        b"overflow" => need(t, 0).map(|_| map.overflow_size().to_string()),
        b"load" => need(t, 0).map(|_| format!("{:.6}", f64::from(map.load_factor()))),
        b"max-load" => {
            need(t, 1)?;
            let percent = parse_count(t[1], 100)?;
            map.set_max_load_factor(percent as f32 / 100.0);
            Ok(format!("{:.2}", f64::from(map.max_load_factor())))
        }
        b"reserve" | b"rehash" => {
            need(t, 1)?;
            let n = parse_count(t[1], 1_000_000)? as usize;
            if t[0] == b"reserve" {
                map.reserve(n);
            } else {
                map.rehash(n);
            }
            Ok(map.bucket_count().to_string())
        }
        b"clear" => {
            need(t, 0)?;
            map.clear();
            Ok(map.bucket_count().to_string())
        }
        b"range" => {
            need(t, 3)?;
            let start = parse_int(t[1])?;
            let count = parse_count(t[2], 100_000)?;
            let step = parse_int(t[3])?;
            for i in 0..count {
                let key = (start as u64).wrapping_add((i as u64).wrapping_mul(step as u64)) as i64;
                let _ = map.insert(key, i);
            }
            Ok(format!("size {} buckets {}", map.len(), map.bucket_count()))
        }
        b"dump" => need(t, 0).map(|_| pairs(map.iter())),
        b"sorted" => {
            need(t, 0)?;
            let mut items: Vec<(i64, i64)> = map.iter().collect();
            items.sort();
            Ok(pairs(items.into_iter()))
        }
        b"checksum" => {
            need(t, 0)?;
            let mut sum: u64 = 0;
            for (i, (k, v)) in map.iter().enumerate() {
                sum = sum.wrapping_add((i as u64 + 1).wrapping_mul(k as u64)).wrapping_add(v as u64);
            }
            Ok(sum.to_string())
        }
        _ => Err("unknown command".to_string()),
    }
}

/// C `isspace` in the "C" locale: what `std::istream >> std::string` splits on.
fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

fn main() {
    if std::env::args_os().len() != 1 {
        eprintln!("usage error: no arguments expected");
        exit(2);
    }
    let mut input = Vec::new();
    std::io::stdin().read_to_end(&mut input).expect("stdin");
    let mut lines: Vec<&[u8]> = input.split(|&c| c == b'\n').collect();
    if input.last() == Some(&b'\n') || input.is_empty() {
        lines.pop();
    }
    let mut map = HopscotchMap::new();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let tokens: Vec<&[u8]> = line.split(|&c| is_space(c)).filter(|w| !w.is_empty()).collect();
        if tokens.is_empty() || tokens[0][0] == b'#' {
            continue;
        }
        let result = run(&mut map, &tokens).unwrap_or_else(|e| format!("error: {e}"));
        writeln!(out, "{}: {}", i + 1, result).expect("buffer");
    }
    std::io::stdout().write_all(&out).expect("stdout");
}
