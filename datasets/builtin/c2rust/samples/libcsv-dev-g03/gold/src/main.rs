//! in-list: quotes every ITEM with a chosen quote character (doubling embedded quotes, as libcsv's
//! `csv_fwrite2` does) and prints them as a parenthesised, comma-separated list.

use std::io::Write;
use std::os::unix::ffi::OsStrExt;

/// `csv_fwrite2`: the quote byte, every source byte (a byte equal to the quote written twice), the quote.
fn write_quoted(out: &mut Vec<u8>, src: &[u8], quote: u8) {
    out.push(quote);
    for &c in src {
        if c == quote {
            out.push(quote);
        }
        out.push(c);
    }
    out.push(quote);
}

fn main() {
    let args: Vec<Vec<u8>> = std::env::args_os().map(|a| a.as_bytes().to_vec()).collect();
    if args.len() < 2 {
        eprintln!("usage: {} QUOTE [ITEM...]", String::from_utf8_lossy(&args[0]));
        std::process::exit(2);
    }
    let mut out: Vec<u8> = Vec::new();
    let q = &args[1];
    let quote = match q.as_slice() {
        b"single" => b'\'',
        b"double" => b'"',
        b"backtick" => b'`',
        [c] if *c > b' ' && *c < 0x7f => *c,
        _ => {
            out.extend_from_slice(b"error: unsupported quote '");
            out.extend_from_slice(q);
            out.extend_from_slice(b"'\n");
            std::io::stdout().write_all(&out).unwrap();
            return;
        }
    };
    let items = &args[2..];
    if items.is_empty() {
        std::io::stdout().write_all(b"error: empty list\n").unwrap();
        return;
    }
    out.push(b'(');
    let mut longest = 0;
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(b", ");
        }
        longest = longest.max(item.len());
        write_quoted(&mut out, item, quote);
    }
    out.extend_from_slice(b")\n");
    out.extend_from_slice(
        format!("{} item{}, quote ", items.len(), if items.len() == 1 { "" } else { "s" }).as_bytes(),
    );
    out.push(quote);
    out.extend_from_slice(format!(", longest item {} bytes\n", longest).as_bytes());
    std::io::stdout().write_all(&out).unwrap();
}
