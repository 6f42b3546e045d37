//! Set algebra over two sets of 64-bit integers (a port of the hopscotch_setops test program over
//! tsl::hopscotch_set<long long>; every set is printed sorted, so the hash order never shows).

use std::collections::BTreeSet;
use std::io::Write;
use std::process::exit;

fn usage(message: &str) -> ! {
    eprintln!("usage error: {message}");
    exit(2);
}

/// `[+-]?[0-9]+` within the signed 64-bit range.
fn parse_item(s: &[u8]) -> Option<i64> {
    let (negative, digits) = match s.first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() {
        return None;
    }
    let limit: u64 = if negative { 1 << 63 } else { i64::MAX as u64 };
    let mut value: u64 = 0;
    for &c in digits {
        if !c.is_ascii_digit() {
            return None;
        }
        let digit = u64::from(c - b'0');
        if value > (limit - digit) / 10 {
            return None;
        }
        value = value * 10 + digit;
    }
    Some(if negative { 0u64.wrapping_sub(value) as i64 } else { value as i64 })
}

/// The items of a comma-separated list (empty text: none); Err(1-based index) of the first bad one.
fn parse_list(text: &[u8]) -> Result<Vec<i64>, usize> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    text.split(|&c| c == b',').enumerate().map(|(i, item)| parse_item(item).ok_or(i + 1)).collect()
}

fn show(out: &mut Vec<u8>, label: &str, set: &BTreeSet<i64>) {
    let mut line = format!("{label}:");
    if set.is_empty() {
        line.push_str(" (none)");
    }
    for v in set {
        line.push_str(&format!(" {v}"));
    }
    writeln!(out, "{line}").expect("buffer");
}

fn main() {
    let args: Vec<Vec<u8>> = std::env::args_os().skip(1).map(|a| a.into_encoded_bytes()).collect();
    let (mut a_text, mut b_text, mut remove_text) = (None, None, None);
    let mut i = 0;
    while i < args.len() {
        if i + 1 >= args.len() {
            usage("missing value");
        }
        let value = Some(args[i + 1].clone());
        match args[i].as_slice() {
            b"--a" => a_text = value,
            b"--b" => b_text = value,
            b"--remove" => remove_text = value,
            _ => usage("unknown argument"),
        }
        i += 2;
    }
    let (Some(a_text), Some(b_text)) = (a_text, b_text) else { usage("--a and --b are required") };
    let mut lists = Vec::new();
    let removing = remove_text.is_some();
    for (name, text) in [("a", a_text), ("b", b_text), ("remove", remove_text.unwrap_or_default())] {
        match parse_list(&text) {
            Ok(items) => lists.push(items),
            Err(index) => {
                println!("error: {name}: item {index} is not a 64-bit integer");
                return;
            }
        }
    }
    let mut out = Vec::new();
    let mut a: BTreeSet<i64> = lists[0].iter().copied().collect();
    let b: BTreeSet<i64> = lists[1].iter().copied().collect();
    writeln!(out, "a: {} distinct of {}", a.len(), lists[0].len()).expect("buffer");
    writeln!(out, "b: {} distinct of {}", b.len(), lists[1].len()).expect("buffer");
    if removing {
        let removed = lists[2].iter().filter(|v| a.remove(v)).count();
        writeln!(out, "removed: {} (a now {})", removed, a.len()).expect("buffer");
    }
    let a_minus_b: BTreeSet<i64> = a.difference(&b).copied().collect();
    let b_minus_a: BTreeSet<i64> = b.difference(&a).copied().collect();
    show(&mut out, "union", &a.union(&b).copied().collect());
    show(&mut out, "intersection", &a.intersection(&b).copied().collect());
    show(&mut out, "a-b", &a_minus_b);
    show(&mut out, "b-a", &b_minus_a);
    show(&mut out, "symmetric", &a.symmetric_difference(&b).copied().collect());
    writeln!(out, "a subset of b: {}", if a_minus_b.is_empty() { "yes" } else { "no" }).expect("buffer");
    writeln!(out, "equal: {}", if a == b { "yes" } else { "no" }).expect("buffer");
    std::io::stdout().write_all(&out).expect("stdout");
}
