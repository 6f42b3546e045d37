//! cjson-query in Rust: parse stdin as cJSON does, walk --path with cJSON's lookup rules, describe the node
//! and compare it with --equals as cJSON_Compare does.

mod cjson;

use cjson::{Item, Kind, Parsed};
use std::io::{Read, Write};

fn usage(why: &str) -> ! {
    eprintln!("usage error: {why}");
    std::process::exit(2);
}

fn type_name(item: &Item) -> &'static str {
    match item.kind {
        Kind::Object => "object",
        Kind::Array => "array",
        Kind::String => "string",
        Kind::Number => "number",
        Kind::True => "true",
        Kind::False => "false",
        Kind::Null => "null",
        Kind::Raw => "invalid",
    }
}

/// "#" and 1-9 digits: the index.
fn index_of(segment: &[u8]) -> Option<usize> {
    let digits = &segment[1..];
    if digits.is_empty() || digits.len() > 9 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(digits).ok()?.parse().ok()
}

fn main() {
    let args: Vec<Vec<u8>> = std::env::args_os().skip(1).map(|a| a.into_encoded_bytes()).collect();
    let (mut path, mut equals, mut case): (&[u8], Option<&[u8]>, &[u8]) = (b"", None, b"0");
    for pair in args.chunks(2) {
        if pair.len() < 2 {
            usage("a --name needs a value");
        }
        match pair[0].as_slice() {
            b"--path" => path = &pair[1],
            b"--equals" => equals = Some(&pair[1]),
            b"--case-sensitive" => case = &pair[1],
            _ => usage("unknown argument (known: --path, --equals, --case-sensitive)"),
        }
    }
    let stdout = std::io::stdout();
    let mut w = stdout.lock();
    if case != b"0" && case != b"1" {
        writeln!(w, "error: --case-sensitive must be 0 or 1").unwrap();
        return;
    }
    let cs = case == b"1";
    let mut text = Vec::new();
    std::io::stdin().take(65535).read_to_end(&mut text).unwrap();
    let doc = match cjson::parse_with_opts(&text, false) {
        Parsed::Ok(doc, _) => doc,
        Parsed::Err(at) => {
            writeln!(w, "parse error at byte {at}").unwrap();
            return;
        }
    };
    let mut node = Some(&doc);
    if !path.is_empty() {
        for (k, segment) in path.split(|&b| b == b'/').enumerate() {
            let Some(current) = node else { break };
            node = if segment.first() == Some(&b'#') {
                match index_of(segment) {
                    Some(i) => current.children.get(i),
                    None => {
                        w.write_all(format!("error: bad index at segment {}: ", k + 1).as_bytes()).unwrap();
                        w.write_all(segment).unwrap();
                        w.write_all(b"\n").unwrap();
                        return;
                    }
                }
            } else {
                cjson::get_object_item(current, segment, cs).map(|i| &current.children[i])
            };
            if node.is_none() {
                w.write_all(format!("not found at segment {}: ", k + 1).as_bytes()).unwrap();
                w.write_all(segment).unwrap();
                w.write_all(b"\n").unwrap();
            }
        }
    }
    let Some(node) = node else { return };
    writeln!(w, "type: {}", type_name(node)).unwrap();
    if let Some(key) = &node.key {
        w.write_all(b"key: ").unwrap();
        w.write_all(key).unwrap();
        w.write_all(b"\n").unwrap();
    }
    if matches!(node.kind, Kind::Array | Kind::Object) {
        writeln!(w, "size: {}", node.children.len()).unwrap();
    }
    if node.kind == Kind::Number {
        writeln!(w, "valueint: {}", node.int).unwrap();
    }
    w.write_all(b"value: ").unwrap();
    w.write_all(&cjson::print(node, false)).unwrap();
    w.write_all(b"\n").unwrap();
    if let Some(other) = equals {
        match cjson::parse_with_opts(other, false) {
            Parsed::Err(_) => writeln!(w, "equals: parse error").unwrap(),
            Parsed::Ok(other, _) => writeln!(w, "equals: {}", cjson::compare(node, &other, cs)).unwrap(),
        }
    }
}
