//! cJSON_Minify (cJSON 1.7.15): drops spaces, tabs, CR, LF, `//` and `/* */` comments and any other `/`;
//! copies strings verbatim. A string ends at the next `"` not directly preceded by a backslash (so `"\\"`
//! does not end where JSON says it does).

/// The input up to its first NUL, minified.
pub fn minify(input: &[u8]) -> Vec<u8> {
    let end = input.iter().position(|&b| b == 0).unwrap_or(input.len());
    let mut s = input[..end].to_vec();
    s.push(0);
    let mut out = Vec::new();
    let mut i = 0;
    while s[i] != 0 {
        match s[i] {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'/' if s[i + 1] == b'/' => i = skip_line_comment(&s, i + 2),
            b'/' if s[i + 1] == b'*' => i = skip_block_comment(&s, i + 2),
            b'/' => i += 1,
            b'"' => i = copy_string(&s, i, &mut out),
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// Past the newline that ends a `//` comment (or at the end).
fn skip_line_comment(s: &[u8], mut i: usize) -> usize {
    while s[i] != 0 {
        if s[i] == b'\n' {
            return i + 1;
        }
        i += 1;
    }
    i
}

/// Past the `*/` that ends a block comment (or at the end).
fn skip_block_comment(s: &[u8], mut i: usize) -> usize {
    while s[i] != 0 {
        if s[i] == b'*' && s[i + 1] == b'/' {
            return i + 2;
        }
        i += 1;
    }
    i
}

/// Copy a string starting at its opening quote; the index after it.
fn copy_string(s: &[u8], start: usize, out: &mut Vec<u8>) -> usize {
    out.push(b'"');
    let mut i = start + 1;
    while s[i] != 0 {
        out.push(s[i]);
        if s[i] == b'"' {
            return i + 1;
        } else if s[i] == b'\\' && s[i + 1] == b'"' {
            out.push(b'"');
            i += 1;
        }
        i += 1;
    }
    i
}
