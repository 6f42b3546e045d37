//! cjson-build in Rust: an object built from named arguments, printed as cJSON_Print /
//! cJSON_PrintUnformatted print it.

mod cjson;

use cjson::{Item, Kind};
use std::io::Write;

fn usage(why: &str) -> ! {
    eprintln!("usage error: {why}");
    std::process::exit(2);
}

/// -?digits(.digits)?([eE][+-]?digits)?
fn is_number(s: &[u8]) -> bool {
    let digits = |i: usize| s[i..].iter().take_while(|b| b.is_ascii_digit()).count();
    let mut i = usize::from(s.first() == Some(&b'-'));
    let n = digits(i);
    if n == 0 {
        return false;
    }
    i += n;
    if s.get(i) == Some(&b'.') {
        let n = digits(i + 1);
        if n == 0 {
            return false;
        }
        i += 1 + n;
    }
    if matches!(s.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(s.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let n = digits(i);
        if n == 0 {
            return false;
        }
        i += n;
    }
    i == s.len()
}

fn member(key: &str, mut item: Item) -> Item {
    item.key = Some(key.as_bytes().to_vec());
    item
}

fn main() {
    let args: Vec<Vec<u8>> = std::env::args_os().skip(1).map(|a| a.into_encoded_bytes()).collect();
    let (mut name, mut age, mut active, mut tags) = (None, None, None, None);
    let mut format: &[u8] = b"pretty";
    for pair in args.chunks(2) {
        if pair.len() < 2 {
            usage("a --name needs a value");
        }
        let value = Some(pair[1].as_slice());
        match pair[0].as_slice() {
            b"--name" => name = value,
            b"--age" => age = value,
            b"--active" => active = value,
            b"--tags" => tags = value,
            b"--format" => format = &pair[1],
            _ => usage("unknown argument (known: --name, --age, --active, --tags, --format)"),
        }
    }
    let stdout = std::io::stdout();
    let mut w = stdout.lock();
    if format != b"pretty" && format != b"compact" {
        writeln!(w, "error: --format must be pretty or compact").unwrap();
        return;
    }
    if let Some(a) = age.filter(|a| !is_number(a)) {
        w.write_all(b"error: --age is not a number: ").unwrap();
        w.write_all(a).unwrap();
        w.write_all(b"\n").unwrap();
        return;
    }
    if active.is_some_and(|a| a != b"true" && a != b"false") {
        writeln!(w, "error: --active must be true or false").unwrap();
        return;
    }
    let mut root = Item::new(Kind::Object);
    if let Some(n) = name {
        root.children.push(member("name", Item::string(n)));
    }
    if let Some(a) = age {
        let value: f64 = std::str::from_utf8(a).unwrap().parse().unwrap();
        root.children.push(member("age", Item::number(value)));
    }
    if let Some(a) = active {
        root.children.push(member("active", Item::new(if a == b"true" { Kind::True } else { Kind::False })));
    }
    if let Some(t) = tags {
        let mut array = Item::new(Kind::Array);
        array.children = t.split(|&b| b == b',').map(Item::string).collect();
        root.children.push(member("tags", array));
    }
    w.write_all(&cjson::print(&root, format == b"pretty")).unwrap();
    w.write_all(b"\n").unwrap();
}
