//! Parse timestamps line by line and print them back (a port of the date_parse test program over
//! Howard Hinnant's date::parse and date::format).

mod parse;

use std::io::{Read, Write};
use std::process::exit;

fn usage(message: &str) -> ! {
    eprintln!("usage error: {message}");
    exit(2);
}

/// Every '%' starts one of the supported conversions.
fn supported(fmt: &[u8]) -> bool {
    let mut i = 0;
    while i < fmt.len() {
        if fmt[i] == b'%' {
            i += 1;
            if i == fmt.len() || !b"YymdejHMSFT%".contains(&fmt[i]) {
                return false;
            }
        }
        i += 1;
    }
    true
}

/// date::format("%F %T") of a sys_seconds: the year right-aligned in 4 columns with '0' fill (so -44 is
/// `0-44`), month and day two digits, then the time of day.
fn format(t: i64) -> String {
    let days = t.div_euclid(86400);
    let secs = t.rem_euclid(86400);
    let (y, m, d) = parse::civil_from_days(days);
    format!("{:0>4}-{:02}-{:02} {:02}:{:02}:{:02}", y.to_string(), m, d, secs / 3600, secs / 60 % 60, secs % 60)
}

fn main() {
    let args: Vec<Vec<u8>> = std::env::args_os().skip(1).map(|a| a.into_encoded_bytes()).collect();
    let mut fmt = None;
    let mut i = 0;
    while i < args.len() {
        if i + 1 >= args.len() {
            usage("missing value");
        }
        match args[i].as_slice() {
            b"--format" => fmt = Some(args[i + 1].clone()),
            _ => usage("unknown argument"),
        }
        i += 2;
    }
    let Some(fmt) = fmt else { usage("--format is required") };
    if !supported(&fmt) {
        println!("error: unsupported format");
        return;
    }
    let mut input = Vec::new();
    std::io::stdin().read_to_end(&mut input).expect("stdin");
    let mut lines: Vec<&[u8]> = input.split(|&c| c == b'\n').collect();
    if input.last() == Some(&b'\n') || input.is_empty() {
        lines.pop();
    }
    let mut out = Vec::new();
    for (n, line) in lines.iter().enumerate() {
        match parse::parse(&fmt, line) {
            None => writeln!(out, "{}: error: cannot parse", n + 1),
            Some((t, used)) => {
                let unread = line.len() - used;
                let tail = if unread > 0 { format!(" ({unread} unread)") } else { String::new() };
                writeln!(out, "{}: {} = {}{}", n + 1, format(t), t, tail)
            }
        }
        .expect("buffer");
    }
    std::io::stdout().write_all(&out).expect("stdout");
}
