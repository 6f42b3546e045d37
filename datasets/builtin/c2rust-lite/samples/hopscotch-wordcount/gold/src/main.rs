//! Count the words of stdin and print them by frequency (a port of the hopscotch_wordcount test program
//! over tsl::hopscotch_map<std::string, long>; the map's order is never printed, so any map will do).

use std::collections::HashMap;
use std::io::{Read, Write};
use std::process::exit;

fn usage(message: &str) -> ! {
    eprintln!("usage error: {message}");
    exit(2);
}

/// C `isspace` in the "C" locale.
fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

fn main() {
    let args: Vec<Vec<u8>> = std::env::args_os().skip(1).map(|a| a.into_encoded_bytes()).collect();
    let mut top_arg: Vec<u8> = b"0".to_vec();
    let mut fold_arg: Vec<u8> = b"no".to_vec();
    let mut i = 0;
    while i < args.len() {
        if i + 1 >= args.len() {
            usage("missing value");
        }
        match args[i].as_slice() {
            b"--top" => top_arg = args[i + 1].clone(),
            b"--fold" => fold_arg = args[i + 1].clone(),
            _ => usage("unknown argument"),
        }
        i += 2;
    }
    let mut out = Vec::new();
    if top_arg.is_empty() || top_arg.len() > 7 || !top_arg.iter().all(u8::is_ascii_digit) {
        println!("error: --top takes 0 to 9999999");
        return;
    }
    let top: usize = std::str::from_utf8(&top_arg).expect("digits").parse().expect("digits");
    if fold_arg != b"yes" && fold_arg != b"no" {
        println!("error: --fold takes yes or no");
        return;
    }
    let fold = fold_arg == b"yes";

    let mut text = Vec::new();
    std::io::stdin().read_to_end(&mut text).expect("stdin");
    let mut counts: HashMap<Vec<u8>, u64> = HashMap::new();
    let mut words = 0u64;
    for word in text.split(|&c| is_space(c)).filter(|w| !w.is_empty()) {
        let mut word = word.to_vec();
        if fold {
            for ch in word.iter_mut() {
                if (b'A'..=b'Z').contains(ch) {
                    *ch = *ch - b'A' + b'a';
                }
            }
        }
        *counts.entry(word).or_insert(0) += 1;
        words += 1;
    }
    let mut sorted: Vec<(Vec<u8>, u64)> = counts.into_iter().collect();
    sorted.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    writeln!(out, "words: {words}").expect("buffer");
    writeln!(out, "distinct: {}", sorted.len()).expect("buffer");
    let shown = if top == 0 { sorted.len() } else { sorted.len().min(top) };
    for (word, count) in &sorted[..shown] {
        write!(out, "{count} ").expect("buffer");
        out.extend_from_slice(word);
        out.push(b'\n');
    }
    std::io::stdout().write_all(&out).expect("stdout");
}
