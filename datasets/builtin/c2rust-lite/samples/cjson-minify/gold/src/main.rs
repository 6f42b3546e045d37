//! cjson-minify in Rust: cJSON_Minify on stdin (up to 65535 bytes, a C string: the first NUL ends it).

mod minify;

use std::io::{Read, Write};

fn main() {
    if std::env::args().len() > 1 {
        eprintln!("usage error: cjson_minify takes no arguments, only stdin");
        std::process::exit(2);
    }
    let mut text = Vec::new();
    std::io::stdin().take(65535).read_to_end(&mut text).unwrap();
    let out = minify::minify(&text);
    let stdout = std::io::stdout();
    let mut w = stdout.lock();
    w.write_all(b"minified: ").unwrap();
    w.write_all(&out).unwrap();
    writeln!(w, "\nlength: {}", out.len()).unwrap();
}
