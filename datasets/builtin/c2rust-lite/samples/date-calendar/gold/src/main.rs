//! A calendar command script (a port of the date_calendar test program over Howard Hinnant's date):
//! one command per stdin line, one numbered result line per command.

mod civil;

use civil::*;
use std::io::Read;
use std::process::exit;

type Outcome = Result<String, String>;

/// Digits with an optional sign ('-' when minus_ok, '+' when plus_ok); at most max_digits digits.
fn read_number(s: &[u8], pos: &mut usize, minus_ok: bool, plus_ok: bool, max_digits: usize) -> Option<i64> {
    let mut negative = false;
    if *pos < s.len() && ((minus_ok && s[*pos] == b'-') || (plus_ok && s[*pos] == b'+')) {
        negative = s[*pos] == b'-';
        *pos += 1;
    }
    let mut value: i64 = 0;
    let mut digits = 0;
    while *pos < s.len() && s[*pos].is_ascii_digit() {
        digits += 1;
        if digits > max_digits {
            return None;
        }
        value = value * 10 + i64::from(s[*pos] - b'0');
        *pos += 1;
    }
    if digits == 0 {
        return None;
    }
    Some(if negative { -value } else { value })
}

fn fail<T>(message: &str) -> Result<T, String> {
    Err(message.to_string())
}

fn parse_int(s: &[u8]) -> Result<i64, String> {
    let mut pos = 0;
    match read_number(s, &mut pos, true, true, 9) {
        Some(n) if pos == s.len() => Ok(n),
        _ => fail("bad number"),
    }
}

fn check_year(y: i64) -> Result<(), String> {
    if (MIN_YEAR..=MAX_YEAR).contains(&y) {
        Ok(())
    } else {
        fail("year out of range")
    }
}

fn expect_dash(s: &[u8], pos: &mut usize) -> Option<()> {
    if *pos < s.len() && s[*pos] == b'-' {
        *pos += 1;
        Some(())
    } else {
        None
    }
}

fn parse_year_month(s: &[u8]) -> Result<(i64, i64), String> {
    let mut pos = 0;
    let shape = (|| {
        let y = read_number(s, &mut pos, true, false, 6)?;
        expect_dash(s, &mut pos)?;
        let m = read_number(s, &mut pos, false, false, 2)?;
        (pos == s.len()).then_some((y, m))
    })();
    let Some((y, m)) = shape else { return fail("bad year-month") };
    check_year(y)?;
    if !(1..=12).contains(&m) {
        return fail("bad month");
    }
    Ok((y, m))
}

/// Y-M-D with month 1..=12; the day must make a valid date unless any_day.
fn parse_date(s: &[u8], any_day: bool) -> Result<(i64, i64, i64), String> {
    let mut pos = 0;
    let shape = (|| {
        let y = read_number(s, &mut pos, true, false, 6)?;
        expect_dash(s, &mut pos)?;
        let m = read_number(s, &mut pos, false, false, 2)?;
        expect_dash(s, &mut pos)?;
        let d = read_number(s, &mut pos, false, false, 2)?;
        (pos == s.len()).then_some((y, m, d))
    })();
    let Some((y, m, d)) = shape else { return fail("bad date") };
    check_year(y)?;
    if !(1..=12).contains(&m) {
        return fail("bad month");
    }
    if !any_day && (d < 1 || d > last_day(y, m)) {
        return fail("invalid date");
    }
    Ok((y, m, d))
}

fn parse_weekday(s: &[u8]) -> Result<i64, String> {
    match WEEKDAY_NAMES.iter().position(|name| name.as_bytes() == s) {
        Some(i) => Ok(i as i64),
        None => fail("bad weekday"),
    }
}

fn show_days(z: i64) -> Outcome {
    if z < days_from_civil(MIN_YEAR, 1, 1) || z > days_from_civil(MAX_YEAR, 12, 31) {
        return fail("out of range");
    }
    let (y, m, d) = civil_from_days(z);
    Ok(show(y, m, d))
}

fn need(t: &[&[u8]], n: usize) -> Result<(), String> {
    if t.len() == n + 1 {
        Ok(())
    } else {
        Err(format!("expected {} argument{}", n, if n == 1 { "" } else { "s" }))
    }
}

fn date_days(t: &[u8]) -> Result<i64, String> {
    let (y, m, d) = parse_date(t, false)?;
    Ok(days_from_civil(y, m, d))
}

/// add-months / add-years: the month index moves, the day stays (the result may be invalid).
fn add_months(t: &[&[u8]], per_unit: i64) -> Outcome {
    need(t, 2)?;
    let (y, m, d) = parse_date(t[1], false)?;
    let n = parse_int(t[2])?;
    let total = y * 12 + m - 1 + n * per_unit;
    let ny = total.div_euclid(12);
    check_year(ny)?;
    Ok(show(ny, total.rem_euclid(12) + 1, d))
}

fn run(t: &[&[u8]]) -> Outcome {
    match t[0] {
        b"weekday" => {
            need(t, 1)?;
            Ok(WEEKDAY_NAMES[weekday(date_days(t[1])?) as usize].to_string())
        }
        b"add-days" => {
            need(t, 2)?;
            let from = date_days(t[1])?;
            let n = parse_int(t[2])?;
            show_days(from + n)
        }
        b"add-months" => add_months(t, 1),
        b"add-years" => add_months(t, 12),
        b"normalize" => {
            need(t, 1)?;
            let (y, m, d) = parse_date(t[1], true)?;
            show_days(days_from_civil(y, m, d))
        }
        b"clamp" => {
            need(t, 1)?;
            let (y, m, d) = parse_date(t[1], true)?;
            let ld = last_day(y, m);
            Ok(show(y, m, if d >= 1 && d <= ld { d } else { ld }))
        }
        b"last" => {
            need(t, 1)?;
            let (y, m) = parse_year_month(t[1])?;
            let ld = last_day(y, m);
            Ok(format!("{} ({} days)", show(y, m, ld), ld))
        }
        b"nth" => {
            need(t, 3)?;
            let (y, m) = parse_year_month(t[1])?;
            let wd = parse_weekday(t[2])?;
            let n = parse_int(t[3])?;
            if !(1..=5).contains(&n) {
                return fail("index out of range");
            }
            Ok(match nth_weekday(y, m, wd, n) {
                Some(d) => show(y, m, d),
                None => "none".to_string(),
            })
        }
        b"last-weekday" => {
            need(t, 2)?;
            let (y, m) = parse_year_month(t[1])?;
            let wd = parse_weekday(t[2])?;
            Ok(show(y, m, last_weekday(y, m, wd)))
        }
        b"diff" => {
            need(t, 2)?;
            let from = date_days(t[1])?;
            let to = date_days(t[2])?;
            Ok((to - from).to_string())
        }
        b"doy" => {
            need(t, 1)?;
            let (y, m, d) = parse_date(t[1], false)?;
            Ok((days_from_civil(y, m, d) - days_from_civil(y, 1, 1) + 1).to_string())
        }
        b"iso" => {
            need(t, 1)?;
            let (y, m, d) = parse_date(t[1], false)?;
            if y == MIN_YEAR || y == MAX_YEAR {
                return fail("out of range");
            }
            let (iy, wn, wd) = iso_week(days_from_civil(y, m, d));
            Ok(format!("{}-W{:02}-{}", show_iso_year(iy), wn, WEEKDAY_NAMES[(wd % 7) as usize]))
        }
        b"leap" => {
            need(t, 1)?;
            let y = parse_int(t[1])?;
            check_year(y)?;
            Ok(is_leap(y).to_string())
        }
        b"weekday-diff" => {
            need(t, 2)?;
            let a = parse_weekday(t[1])?;
            let b = parse_weekday(t[2])?;
            Ok((a - b).rem_euclid(7).to_string())
        }
        _ => fail("unknown command"),
    }
}

/// C `isspace` in the "C" locale: what `std::istream >> std::string` splits on.
fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

fn main() {
    if std::env::args_os().len() != 1 {
        eprintln!("usage error: no arguments expected");
        exit(2);
    }
    let mut input = Vec::new();
    std::io::stdin().read_to_end(&mut input).expect("stdin");
    let mut lines: Vec<&[u8]> = input.split(|&c| c == b'\n').collect();
    if input.last() == Some(&b'\n') || input.is_empty() {
        lines.pop();
    }
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        let tokens: Vec<&[u8]> = line.split(|&c| is_space(c)).filter(|w| !w.is_empty()).collect();
        if tokens.is_empty() || tokens[0][0] == b'#' {
            continue;
        }
        let result = run(&tokens).unwrap_or_else(|e| format!("error: {e}"));
        out.push_str(&format!("{}: {}\n", i + 1, result));
    }
    print!("{out}");
}
