//! cjson-parse-print in Rust: parse stdin as cJSON does, print it back formatted or compact.

mod cjson;

use std::io::{Read, Write};

fn usage(why: &str) -> ! {
    eprintln!("usage error: {why}");
    std::process::exit(2);
}

fn main() {
    let args: Vec<Vec<u8>> = std::env::args_os().skip(1).map(|a| a.into_encoded_bytes()).collect();
    let (mut format, mut strict): (Vec<u8>, Vec<u8>) = (b"pretty".to_vec(), b"0".to_vec());
    for pair in args.chunks(2) {
        if pair.len() < 2 {
            usage("a --name needs a value");
        }
        match pair[0].as_slice() {
            b"--format" => format = pair[1].clone(),
            b"--strict" => strict = pair[1].clone(),
            _ => usage("unknown argument (known: --format, --strict)"),
        }
    }
    let stdout = std::io::stdout();
    let mut w = stdout.lock();
    let pretty = format == b"pretty";
    if !pretty && format != b"compact" {
        writeln!(w, "error: --format must be pretty or compact").unwrap();
        return;
    }
    if strict != b"0" && strict != b"1" {
        writeln!(w, "error: --strict must be 0 or 1").unwrap();
        return;
    }
    let mut text = Vec::new();
    std::io::stdin().take(65535).read_to_end(&mut text).unwrap();
    match cjson::parse_with_opts(&text, strict == b"1") {
        cjson::Parsed::Err(at) => writeln!(w, "parse error at byte {at}").unwrap(),
        cjson::Parsed::Ok(item, end) => {
            w.write_all(&cjson::print(&item, pretty)).unwrap();
            writeln!(w, "\nparsed bytes: {end}").unwrap();
        }
    }
}
