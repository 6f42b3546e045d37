//! Civil-date arithmetic: validate a year-month-day, count days since 1970-01-01, name the weekday and
//! step the date by a number of days (a port of the date_civil test program over Howard Hinnant's date).

use std::process::exit;

const WEEKDAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

fn is_leap(y: i64) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

fn last_day(y: i64, m: i64) -> i64 {
    const DAYS: [i64; 12] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    if m == 2 && is_leap(y) {
        29
    } else {
        DAYS[(m - 1) as usize]
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's days_from_civil).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

/// The date of a day count (Hinnant's civil_from_days).
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719468;
    let era = if z >= 0 { z } else { z - 146096 } / 146097;
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn weekday(z: i64) -> &'static str {
    WEEKDAYS[(z + 4).rem_euclid(7) as usize]
}

/// The library's `operator<<` for year_month_day: the year unpadded, month and day two digits.
fn show(y: i64, m: i64, d: i64) -> String {
    format!("{}-{:02}-{:02}", y, m, d)
}

/// An optional '-' (when allowed) then 1..=max_digits ASCII digits from s[*pos..].
fn read_number(s: &[u8], pos: &mut usize, allow_sign: bool, max_digits: usize) -> Option<i64> {
    let mut negative = false;
    if allow_sign && *pos < s.len() && s[*pos] == b'-' {
        negative = true;
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

fn parse_date(s: &[u8]) -> Option<(i64, i64, i64)> {
    let mut pos = 0;
    let y = read_number(s, &mut pos, true, 6)?;
    if pos >= s.len() || s[pos] != b'-' {
        return None;
    }
    pos += 1;
    let m = read_number(s, &mut pos, false, 3)?;
    if pos >= s.len() || s[pos] != b'-' {
        return None;
    }
    pos += 1;
    let d = read_number(s, &mut pos, false, 3)?;
    (pos == s.len()).then_some((y, m, d))
}

fn parse_days(s: &[u8]) -> Option<i64> {
    let plus = s.first() == Some(&b'+');
    let mut pos = usize::from(plus);
    let n = read_number(s, &mut pos, !plus, 9)?;
    (pos == s.len() && (-9_999_999..=9_999_999).contains(&n)).then_some(n)
}

fn usage(message: &str) -> ! {
    eprintln!("usage error: {message}");
    exit(2);
}

fn main() {
    let args: Vec<Vec<u8>> = std::env::args_os().skip(1).map(|a| a.into_encoded_bytes()).collect();
    let mut date_arg: Option<Vec<u8>> = None;
    let mut days_arg: Option<Vec<u8>> = None;
    let mut i = 0;
    while i < args.len() {
        if i + 1 >= args.len() {
            usage("missing value");
        }
        match args[i].as_slice() {
            b"--date" => date_arg = Some(args[i + 1].clone()),
            b"--days" => days_arg = Some(args[i + 1].clone()),
            _ => usage("unknown argument"),
        }
        i += 2;
    }
    let Some(date_arg) = date_arg else { usage("--date is required") };
    let Some((y, m, d)) = parse_date(&date_arg) else {
        println!("error: malformed date");
        return;
    };
    if !(-32767..=32767).contains(&y) {
        println!("error: year out of range");
        return;
    }
    if m > 255 || d > 255 {
        println!("error: month or day out of range");
        return;
    }
    let n = match &days_arg {
        None => 0,
        Some(text) => match parse_days(text) {
            Some(n) => n,
            None => {
                println!("error: malformed days");
                return;
            }
        },
    };
    let month_ok = (1..=12).contains(&m);
    let ok = month_ok && d >= 1 && d <= last_day(y, m);
    if ok {
        println!("date: {}", show(y, m, d));
    } else {
        println!("date: {} is not a valid year_month_day", show(y, m, d));
    }
    println!("ok: {ok}");
    if !ok {
        println!("month ok: {month_ok}");
        println!("day ok: {}", (1..=31).contains(&d));
        return;
    }
    let z = days_from_civil(y, m, d);
    println!("days: {z}");
    println!("weekday: {}", weekday(z));
    if days_arg.is_some() {
        let moved = z + n;
        if moved < days_from_civil(-32767, 1, 1) || moved > days_from_civil(32767, 12, 31) {
            println!("moved: out of range");
        } else {
            let (yy, mm, dd) = civil_from_days(moved);
            println!("moved: {} ({})", show(yy, mm, dd), weekday(moved));
        }
    }
}
