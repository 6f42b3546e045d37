//! A port of inih's parser (r55 as Debian builds libinih 55-1, default options): comments start with `;` or
//! `#`, inline comments are `;` after whitespace, indented lines continue the previous value, a UTF-8 BOM
//! on the first line is skipped, names are cut to 49 bytes for continuations and sections to 49 bytes, parsing
//! goes on after an error and the first error's line number is returned.

/// inih's INI_MAX_LINE: a reader hands over at most this many bytes minus one per line.
pub const MAX_LINE: usize = 200;
const MAX_SECTION: usize = 50;
const MAX_NAME: usize = 50;

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

fn c_str(s: &[u8]) -> &[u8] {
    &s[..s.iter().position(|&b| b == 0).unwrap_or(s.len())]
}

fn rstrip(s: &[u8]) -> &[u8] {
    let mut end = s.len();
    while end > 0 && is_space(s[end - 1]) {
        end -= 1;
    }
    &s[..end]
}

fn lskip(s: &[u8]) -> &[u8] {
    let start = s.iter().position(|&b| !is_space(b)).unwrap_or(s.len());
    &s[start..]
}

/// Index of the first byte in `chars`, or of an inline comment (`;` right after whitespace), or the end.
fn find_chars_or_comment(s: &[u8], chars: &[u8]) -> usize {
    let mut was_space = false;
    for (i, &c) in s.iter().enumerate() {
        if chars.contains(&c) || (was_space && c == b';') {
            return i;
        }
        was_space = is_space(c);
    }
    s.len()
}

/// strncpy0: at most size - 1 bytes.
fn copy0(s: &[u8], size: usize) -> Vec<u8> {
    s[..s.len().min(size - 1)].to_vec()
}

/// The lines a reader hands over: up to and including a newline, at most `limit` bytes each (fgets and
/// inih's string reader use limit = MAX_LINE - 1).
pub fn split_lines(data: &[u8], limit: usize) -> Vec<&[u8]> {
    let mut lines = Vec::new();
    let mut rest = data;
    while !rest.is_empty() {
        let mut n = 0;
        while n < rest.len() && n < limit {
            n += 1;
            if rest[n - 1] == b'\n' {
                break;
            }
        }
        lines.push(&rest[..n]);
        rest = &rest[n..];
    }
    lines
}

/// ini_parse_stream over the lines a reader returned: `handler(section, name, value)` per entry (false is an
/// error on that line); the first error's line number, or 0.
pub fn parse_lines<'a>(
    lines: impl IntoIterator<Item = &'a [u8]>,
    mut handler: impl FnMut(&[u8], &[u8], &[u8]) -> bool,
) -> usize {
    let (mut section, mut prev_name) = (Vec::new(), Vec::new());
    let (mut error, mut lineno) = (0, 0);
    for raw in lines {
        lineno += 1;
        let bom = if lineno == 1 && raw.starts_with(b"\xEF\xBB\xBF") { 3 } else { 0 };
        let line = c_str(&raw[bom..]);
        let trimmed = rstrip(line);
        let start = lskip(trimmed);
        let indented = bom + (trimmed.len() - start.len()) > 0;
        let mut failed = false;
        if start.is_empty() || start[0] == b';' || start[0] == b'#' {
            continue;
        }
        if !prev_name.is_empty() && indented {
            failed = !handler(&section, &prev_name, start);
        } else if start[0] == b'[' {
            let inner = &start[1..];
            let end = find_chars_or_comment(inner, b"]");
            if end < inner.len() && inner[end] == b']' {
                section = copy0(&inner[..end], MAX_SECTION);
                prev_name.clear();
            } else {
                failed = true;
            }
        } else {
            let end = find_chars_or_comment(start, b"=:");
            if end < start.len() && matches!(start[end], b'=' | b':') {
                let name = rstrip(&start[..end]);
                let value = &start[end + 1..];
                let value = rstrip(lskip(&value[..find_chars_or_comment(value, b"")]));
                prev_name = copy0(name, MAX_NAME);
                failed = !handler(&section, name, value);
            } else {
                failed = true;
            }
        }
        if failed && error == 0 {
            error = lineno;
        }
    }
    error
}

