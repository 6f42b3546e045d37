//! The proleptic Gregorian calendar as the date library computes it: day counts since 1970-01-01,
//! weekdays (0 = Sunday), month lengths, nth/last weekday of a month and ISO week dates.

pub const MIN_YEAR: i64 = -32767;
pub const MAX_YEAR: i64 = 32767;
pub const WEEKDAY_NAMES: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

pub fn is_leap(y: i64) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

pub fn last_day(y: i64, m: i64) -> i64 {
    const DAYS: [i64; 12] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    if m == 2 && is_leap(y) {
        29
    } else {
        DAYS[(m - 1) as usize]
    }
}

/// Days since 1970-01-01 (linear in the day, so day 0 or 40 land in a neighbouring month).
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

pub fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// 0 = Sunday … 6 = Saturday.
pub fn weekday(z: i64) -> i64 {
    (z + 4).rem_euclid(7)
}

/// The day of the month of the last `wd` in y-m.
pub fn last_weekday(y: i64, m: i64, wd: i64) -> i64 {
    let ld = last_day(y, m);
    ld - (weekday(days_from_civil(y, m, ld)) - wd).rem_euclid(7)
}

/// The day of the month of the nth (1..=5) `wd` in y-m, if the month has one.
pub fn nth_weekday(y: i64, m: i64, wd: i64, n: i64) -> Option<i64> {
    let first = weekday(days_from_civil(y, m, 1));
    let d = (wd - first).rem_euclid(7) + (n - 1) * 7 + 1;
    (d <= last_day(y, m)).then_some(d)
}

/// ISO 8601 week date of a day count: (ISO year, week 1..=53, weekday 1 = Monday … 7 = Sunday).
pub fn iso_week(z: i64) -> (i64, i64, i64) {
    let start_of = |y: i64| days_from_civil(y - 1, 12, last_weekday(y - 1, 12, 4)) + 4;
    let mut y = civil_from_days(z + 3).0;
    let mut start = start_of(y);
    if z < start {
        y -= 1;
        start = start_of(y);
    }
    let wd = weekday(z);
    (y, (z - start) / 7 + 1, if wd == 0 { 7 } else { wd })
}

/// `operator<<` of year_month_day: the year unpadded, month and day two digits, and the invalid suffix.
pub fn show(y: i64, m: i64, d: i64) -> String {
    let ok = (1..=12).contains(&m) && d >= 1 && d <= last_day(y, m);
    let text = format!("{}-{:02}-{:02}", y, m, d);
    if ok {
        text
    } else {
        text + " is not a valid year_month_day"
    }
}

/// `operator<<` of an ISO year: at least 4 digits, zero-padded after the sign.
pub fn show_iso_year(y: i64) -> String {
    if y < 0 {
        format!("-{:04}", -y)
    } else {
        format!("{:04}", y)
    }
}
