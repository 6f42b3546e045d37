//! A port of cJSON 1.7.15 (Debian 1.7.15-1+deb12u4): the parser, the printers, key lookup and cJSON_Compare.
//! Strings are C strings: bytes up to the first NUL, which ends them.
#![allow(dead_code)]

pub const NESTING_LIMIT: usize = 1000;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    False,
    True,
    Null,
    Number,
    String,
    Array,
    Object,
    Raw,
}

#[derive(Clone, Debug)]
pub struct Item {
    pub kind: Kind,
    pub key: Option<Vec<u8>>,
    pub string: Vec<u8>,
    pub number: f64,
    pub int: i32,
    pub children: Vec<Item>,
}

impl Item {
    pub fn new(kind: Kind) -> Item {
        Item { kind, key: None, string: Vec::new(), number: 0.0, int: 0, children: Vec::new() }
    }

    pub fn number(n: f64) -> Item {
        let mut item = Item::new(Kind::Number);
        item.number = n;
        item.int = saturate(n);
        item
    }

    pub fn string(s: &[u8]) -> Item {
        let mut item = Item::new(Kind::String);
        item.string = c_str(s).to_vec();
        item
    }
}

/// The bytes of `s` up to (not including) its first NUL.
pub fn c_str(s: &[u8]) -> &[u8] {
    match s.iter().position(|&b| b == 0) {
        Some(i) => &s[..i],
        None => s,
    }
}

/// cJSON's valueint: the double saturated to int, truncated toward zero.
pub fn saturate(n: f64) -> i32 {
    if n >= i32::MAX as f64 {
        i32::MAX
    } else if n <= i32::MIN as f64 {
        i32::MIN
    } else {
        n as i32
    }
}

struct Buf<'a> {
    content: &'a [u8],
    offset: usize,
    depth: usize,
}

impl<'a> Buf<'a> {
    fn can_read(&self, n: usize) -> bool {
        self.offset + n <= self.content.len()
    }
    fn can_access(&self, i: usize) -> bool {
        self.offset + i < self.content.len()
    }
    fn at(&self, i: usize) -> u8 {
        self.content[self.offset + i]
    }
    fn starts_with(&self, word: &[u8]) -> bool {
        self.can_read(word.len()) && &self.content[self.offset..self.offset + word.len()] == word
    }
    fn skip_whitespace(&mut self) {
        if !self.can_access(0) {
            return;
        }
        while self.can_access(0) && self.at(0) <= 32 {
            self.offset += 1;
        }
        if self.offset == self.content.len() {
            self.offset -= 1;
        }
    }
}

/// Outcome of a parse: the tree, or the byte offset cJSON_GetErrorPtr points at.
pub enum Parsed {
    Ok(Item, usize),
    Err(usize),
}

/// cJSON_ParseWithOpts on a C string (the input up to its first NUL); Ok carries the parse end offset.
pub fn parse_with_opts(input: &[u8], require_null_terminated: bool) -> Parsed {
    let mut content = c_str(input).to_vec();
    content.push(0);
    let mut buf = Buf { content: &content, offset: 0, depth: 0 };
    if buf.can_access(4) && buf.content[..3] == [0xEF, 0xBB, 0xBF] {
        buf.offset += 3;
    }
    buf.skip_whitespace();
    let mut item = Item::new(Kind::Null);
    let mut ok = parse_value(&mut item, &mut buf);
    if ok && require_null_terminated {
        buf.skip_whitespace();
        ok = buf.offset < buf.content.len() && buf.at(0) == 0;
    }
    if ok {
        return Parsed::Ok(item, buf.offset);
    }
    let len = buf.content.len();
    Parsed::Err(if buf.offset < len { buf.offset } else { len - 1 })
}

fn parse_value(item: &mut Item, buf: &mut Buf) -> bool {
    if buf.starts_with(b"null") {
        item.kind = Kind::Null;
        buf.offset += 4;
        return true;
    }
    if buf.starts_with(b"false") {
        item.kind = Kind::False;
        buf.offset += 5;
        return true;
    }
    if buf.starts_with(b"true") {
        item.kind = Kind::True;
        item.int = 1;
        buf.offset += 4;
        return true;
    }
    if !buf.can_access(0) {
        return false;
    }
    match buf.at(0) {
        b'"' => parse_string(item, buf),
        b'-' | b'0'..=b'9' => parse_number(item, buf),
        b'[' => parse_array(item, buf),
        b'{' => parse_object(item, buf),
        _ => false,
    }
}

/// How many bytes of `s` strtod consumes, and the value (s holds only [0-9+-eE.]).
fn strtod_prefix(s: &[u8]) -> Option<(f64, usize)> {
    let digits = |from: usize| s[from..].iter().take_while(|b| b.is_ascii_digit()).count();
    let mut i = 0;
    let negative = matches!(s.first(), Some(b'-'));
    if matches!(s.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    let int_len = digits(i);
    let int_part = &s[i..i + int_len];
    i += int_len;
    let mut frac_part: &[u8] = b"";
    if s.get(i) == Some(&b'.') {
        let n = digits(i + 1);
        frac_part = &s[i + 1..i + 1 + n];
        if int_len + n > 0 {
            i += 1 + n;
        }
    }
    if int_len + frac_part.len() == 0 {
        return None;
    }
    let mut exp: &[u8] = b"0";
    if matches!(s.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(s.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let n = digits(j);
        if n > 0 {
            exp = &s[i + 1..j + n];
            i = j + n;
        }
    }
    let mut text = String::new();
    text.push(if negative { '-' } else { '+' });
    text.push('0');
    text.push_str(std::str::from_utf8(int_part).unwrap());
    text.push('.');
    text.push_str(std::str::from_utf8(frac_part).unwrap());
    text.push('0');
    text.push('e');
    text.push_str(&clamp_exponent(exp));
    Some((text.parse::<f64>().unwrap(), i))
}

/// An exponent too long for the float parser, clamped to one that gives the same result.
fn clamp_exponent(exp: &[u8]) -> String {
    let text = std::str::from_utf8(exp).unwrap();
    let (sign, digits) = match text.as_bytes()[0] {
        b'+' | b'-' => (&text[..1], &text[1..]),
        _ => ("", text),
    };
    let digits = digits.trim_start_matches('0');
    if digits.len() > 6 {
        format!("{sign}999999")
    } else if digits.is_empty() {
        "0".to_string()
    } else {
        format!("{sign}{digits}")
    }
}

fn parse_number(item: &mut Item, buf: &mut Buf) -> bool {
    let mut n = 0;
    while buf.can_access(n) && matches!(buf.at(n), b'0'..=b'9' | b'+' | b'-' | b'e' | b'E' | b'.') {
        n += 1;
    }
    let text = &buf.content[buf.offset..buf.offset + n];
    match strtod_prefix(text) {
        None => false,
        Some((value, used)) => {
            item.number = value;
            item.int = saturate(value);
            item.kind = Kind::Number;
            buf.offset += used;
            true
        }
    }
}

fn hex4(s: &[u8]) -> u32 {
    let mut h = 0u32;
    for (i, &c) in s[..4].iter().enumerate() {
        let d = match c {
            b'0'..=b'9' => c - b'0',
            b'A'..=b'F' => 10 + c - b'A',
            b'a'..=b'f' => 10 + c - b'a',
            _ => return 0,
        };
        h += d as u32;
        if i < 3 {
            h <<= 4;
        }
    }
    h
}

/// A \uXXXX (or surrogate pair) literal at `at` to UTF-8; the literal's length, 0 on failure.
fn utf16_literal(s: &[u8], at: usize, end: usize, out: &mut Vec<u8>) -> usize {
    if end - at < 6 {
        return 0;
    }
    let first = hex4(&s[at + 2..]);
    if (0xDC00..=0xDFFF).contains(&first) {
        return 0;
    }
    let (code, len) = if (0xD800..=0xDBFF).contains(&first) {
        let second_at = at + 6;
        if end - second_at < 6 || s[second_at] != b'\\' || s[second_at + 1] != b'u' {
            return 0;
        }
        let second = hex4(&s[second_at + 2..]);
        if !(0xDC00..=0xDFFF).contains(&second) {
            return 0;
        }
        (0x10000 + (((first & 0x3FF) << 10) | (second & 0x3FF)), 12)
    } else {
        (first, 6)
    };
    match char::from_u32(code) {
        Some(c) => {
            let mut tmp = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
        }
        None => return 0,
    }
    len
}

fn parse_string(item: &mut Item, buf: &mut Buf) -> bool {
    let s = buf.content;
    let len = s.len();
    let start = buf.offset;
    let mut ip = start + 1;
    let mut end = start + 1;
    let mut ok = s[start] == b'"';
    if ok {
        while end < len && s[end] != b'"' {
            if s[end] == b'\\' {
                if end + 1 >= len {
                    ok = false;
                    break;
                }
                end += 1;
            }
            end += 1;
        }
        ok = ok && end < len && s[end] == b'"';
    }
    let mut out = Vec::new();
    while ok && ip < end {
        if s[ip] != b'\\' {
            out.push(s[ip]);
            ip += 1;
            continue;
        }
        let mut seq = 2;
        match s[ip + 1] {
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            c @ (b'"' | b'\\' | b'/') => out.push(c),
            b'u' => {
                seq = utf16_literal(s, ip, end, &mut out);
                if seq == 0 {
                    ok = false;
                }
            }
            _ => ok = false,
        }
        if ok {
            ip += seq;
        }
    }
    if !ok {
        buf.offset = ip;
        return false;
    }
    item.kind = Kind::String;
    item.string = c_str(&out).to_vec();
    buf.offset = end + 1;
    true
}

fn parse_array(item: &mut Item, buf: &mut Buf) -> bool {
    if buf.depth >= NESTING_LIMIT {
        return false;
    }
    buf.depth += 1;
    buf.offset += 1;
    buf.skip_whitespace();
    let mut children = Vec::new();
    if !(buf.can_access(0) && buf.at(0) == b']') {
        if !buf.can_access(0) {
            buf.offset -= 1;
            return false;
        }
        buf.offset -= 1;
        loop {
            let mut child = Item::new(Kind::Null);
            buf.offset += 1;
            buf.skip_whitespace();
            if !parse_value(&mut child, buf) {
                return false;
            }
            buf.skip_whitespace();
            children.push(child);
            if !(buf.can_access(0) && buf.at(0) == b',') {
                break;
            }
        }
        if !buf.can_access(0) || buf.at(0) != b']' {
            return false;
        }
    }
    buf.depth -= 1;
    item.kind = Kind::Array;
    item.children = children;
    buf.offset += 1;
    true
}

fn parse_object(item: &mut Item, buf: &mut Buf) -> bool {
    if buf.depth >= NESTING_LIMIT {
        return false;
    }
    buf.depth += 1;
    buf.offset += 1;
    buf.skip_whitespace();
    let mut children = Vec::new();
    if !(buf.can_access(0) && buf.at(0) == b'}') {
        if !buf.can_access(0) {
            buf.offset -= 1;
            return false;
        }
        buf.offset -= 1;
        loop {
            let mut child = Item::new(Kind::Null);
            if !buf.can_access(1) {
                return false;
            }
            buf.offset += 1;
            buf.skip_whitespace();
            if !parse_string(&mut child, buf) {
                return false;
            }
            buf.skip_whitespace();
            child.key = Some(std::mem::take(&mut child.string));
            if !buf.can_access(0) || buf.at(0) != b':' {
                return false;
            }
            buf.offset += 1;
            buf.skip_whitespace();
            if !parse_value(&mut child, buf) {
                return false;
            }
            buf.skip_whitespace();
            children.push(child);
            if !(buf.can_access(0) && buf.at(0) == b',') {
                break;
            }
        }
        if !buf.can_access(0) || buf.at(0) != b'}' {
            return false;
        }
    }
    buf.depth -= 1;
    item.kind = Kind::Object;
    item.children = children;
    buf.offset += 1;
    true
}

/// cJSON's compare_double: equal within DBL_EPSILON relative to the larger magnitude.
pub fn compare_double(a: f64, b: f64) -> bool {
    let max = if a.abs() > b.abs() { a.abs() } else { b.abs() };
    (a - b).abs() <= max * f64::EPSILON
}

/// printf("%1.<precision>g", d) for a finite d.
pub fn format_g(d: f64, precision: usize) -> String {
    if d == 0.0 {
        return if d.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    let sci = format!("{:.*e}", precision - 1, d);
    let (mantissa, exp) = sci.split_once('e').unwrap();
    let exp: i32 = exp.parse().unwrap();
    if exp < -4 || exp >= precision as i32 {
        let mantissa = strip_zeros(mantissa);
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exp.abs())
    } else {
        strip_zeros(&format!("{:.*}", (precision as i32 - 1 - exp) as usize, d))
    }
}

fn strip_zeros(s: &str) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s.to_string()
    }
}

/// print_number: "null" for NaN/Infinity, %1.15g if it reads back equal (compare_double), else %1.17g.
pub fn print_number(d: f64) -> String {
    if !d.is_finite() {
        return "null".into();
    }
    let short = format_g(d, 15);
    match short.parse::<f64>() {
        Ok(back) if compare_double(back, d) => short,
        _ => format_g(d, 17),
    }
}

/// print_string_ptr: quotes, the short escapes, \u00XX for other control bytes, every other byte raw.
pub fn print_string(s: &[u8], out: &mut Vec<u8>) {
    out.push(b'"');
    for &c in c_str(s) {
        match c {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            8 => out.extend_from_slice(b"\\b"),
            12 => out.extend_from_slice(b"\\f"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            c if c < 32 => out.extend_from_slice(format!("\\u{:04x}", c).as_bytes()),
            c => out.push(c),
        }
    }
    out.push(b'"');
}

/// cJSON_Print (format = true) or cJSON_PrintUnformatted (false).
pub fn print(item: &Item, format: bool) -> Vec<u8> {
    let mut out = Vec::new();
    print_value(item, format, 0, &mut out);
    out
}

fn print_value(item: &Item, format: bool, depth: usize, out: &mut Vec<u8>) {
    match item.kind {
        Kind::Null => out.extend_from_slice(b"null"),
        Kind::False => out.extend_from_slice(b"false"),
        Kind::True => out.extend_from_slice(b"true"),
        Kind::Number => out.extend_from_slice(print_number(item.number).as_bytes()),
        Kind::Raw => out.extend_from_slice(c_str(&item.string)),
        Kind::String => print_string(&item.string, out),
        Kind::Array => {
            out.push(b'[');
            for (i, child) in item.children.iter().enumerate() {
                print_value(child, format, depth + 1, out);
                if i + 1 < item.children.len() {
                    out.extend_from_slice(if format { b", " } else { b"," });
                }
            }
            out.push(b']');
        }
        Kind::Object => {
            let depth = depth + 1;
            out.push(b'{');
            if format {
                out.push(b'\n');
            }
            for (i, child) in item.children.iter().enumerate() {
                if format {
                    out.extend(std::iter::repeat(b'\t').take(depth));
                }
                print_string(child.key.as_deref().unwrap_or(b""), out);
                out.extend_from_slice(if format { b":\t" } else { b":" });
                print_value(child, format, depth, out);
                if i + 1 < item.children.len() {
                    out.push(b',');
                }
                if format {
                    out.push(b'\n');
                }
            }
            if format {
                out.extend(std::iter::repeat(b'\t').take(depth - 1));
            }
            out.push(b'}');
        }
    }
}

fn lower(c: u8) -> u8 {
    c.to_ascii_lowercase()
}

/// strcmp (case_sensitive) or cJSON's case_insensitive_strcmp (ASCII tolower) equality of two C strings.
pub fn same_key(a: &[u8], b: &[u8], case_sensitive: bool) -> bool {
    let (a, b) = (c_str(a), c_str(b));
    if case_sensitive {
        a == b
    } else {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| lower(*x) == lower(*y))
    }
}

/// get_object_item: the first child whose key matches; children without keys (array elements) never do.
pub fn get_object_item(object: &Item, name: &[u8], case_sensitive: bool) -> Option<usize> {
    for (i, child) in object.children.iter().enumerate() {
        match &child.key {
            None if case_sensitive => return None,
            None => continue,
            Some(key) if same_key(name, key, case_sensitive) => return Some(i),
            Some(_) => continue,
        }
    }
    None
}

/// cJSON_Compare.
pub fn compare(a: &Item, b: &Item, case_sensitive: bool) -> bool {
    if a.kind != b.kind {
        return false;
    }
    match a.kind {
        Kind::False | Kind::True | Kind::Null => true,
        Kind::Number => compare_double(a.number, b.number),
        Kind::String | Kind::Raw => c_str(&a.string) == c_str(&b.string),
        Kind::Array => {
            a.children.len() == b.children.len()
                && a.children.iter().zip(&b.children).all(|(x, y)| compare(x, y, case_sensitive))
        }
        Kind::Object => covers(a, b, case_sensitive) && covers(b, a, case_sensitive),
    }
}

fn covers(a: &Item, b: &Item, case_sensitive: bool) -> bool {
    a.children.iter().all(|child| {
        let key = child.key.as_deref().unwrap_or(b"");
        match get_object_item(b, key, case_sensitive) {
            Some(i) => compare(child, &b.children[i], case_sensitive),
            None => false,
        }
    })
}
