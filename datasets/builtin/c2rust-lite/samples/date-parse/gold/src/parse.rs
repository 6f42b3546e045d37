//! date::parse (from_stream into sys_seconds) for the numeric conversions %Y %y %m %d %e %j %H %M %S %F %T %%,
//! as date 3.0.1 does it: greedy digit reads with maximum widths, sentinels for "not given", conflicting
//! repeats fail, a two-digit year picks its century, %j fills month and day, and the time of day must be in
//! its conventional range.

const NOT_A_YEAR: i64 = -32768;
const NOT_A_2DIGIT_YEAR: i64 = 100;
const NOT_A_MONTH: i64 = 0;
const NOT_A_DAY: i64 = 0;
const NOT_A_DOY: i64 = -1;
const NOT_A_HOUR: i64 = i32::MIN as i64;
const NOT_A_MINUTE: i64 = NOT_A_HOUR;
const NOT_A_SECOND: i64 = i64::MIN;

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

/// An input stream: a position and the fail bit (the eof bit never changes an outcome here).
struct Input<'a> {
    s: &'a [u8],
    pos: usize,
    fail: bool,
}

impl Input<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    /// A literal character.
    fn lit(&mut self, c: u8) {
        if self.fail {
            return;
        }
        if self.peek() == Some(c) {
            self.pos += 1;
        } else {
            self.fail = true;
        }
    }

    /// read_unsigned: at least min, at most max ASCII digits.
    fn unsigned(&mut self, min: u32, max: u32) -> i64 {
        if self.fail {
            return 0;
        }
        let (mut x, mut count) = (0i64, 0u32);
        while let Some(c) = self.peek() {
            if !c.is_ascii_digit() {
                break;
            }
            self.pos += 1;
            count += 1;
            x = 10 * x + i64::from(c - b'0');
            if count == max {
                break;
            }
        }
        if count < min {
            self.fail = true;
        }
        x
    }

    /// read_signed: an optional sign, then 1..=max digits.
    fn signed(&mut self, max: u32) -> i64 {
        if self.fail {
            return 0;
        }
        match self.peek() {
            Some(c) if c.is_ascii_digit() || c == b'-' || c == b'+' => {
                if c == b'-' || c == b'+' {
                    self.pos += 1;
                }
                let x = self.unsigned(1, max);
                if c == b'-' {
                    -x
                } else {
                    x
                }
            }
            _ => {
                self.fail = true;
                0
            }
        }
    }

    /// read_long_double with at most 2 characters (seconds of sys_seconds), rounded to nearest, ties to even.
    fn seconds(&mut self) -> i64 {
        if self.fail {
            return 0;
        }
        let (mut count, mut i, mut f, mut fcount) = (0, 0i64, 0i64, 0u32);
        let mut fraction = false;
        while let Some(c) = self.peek() {
            if c == b'.' && !fraction {
                fraction = true;
            } else if c.is_ascii_digit() {
                if fraction {
                    f = 10 * f + i64::from(c - b'0');
                    fcount += 1;
                } else {
                    i = 10 * i + i64::from(c - b'0');
                }
            } else {
                break;
            }
            self.pos += 1;
            count += 1;
            if count == 2 {
                break;
            }
        }
        if count < 1 {
            self.fail = true;
            return 0;
        }
        // Two characters allow at most one fraction digit: below .5 rounds down, .5 to even (i is 0), above up.
        if fcount == 1 && f > 5 {
            i + 1
        } else {
            i
        }
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')) {
            self.pos += 1;
        }
    }
}

/// checked_set: the first value given wins; a different later one fails.
fn checked_set(value: &mut i64, from: i64, not_a_value: i64, input: &mut Input) {
    if input.fail {
        return;
    }
    if *value == not_a_value {
        *value = from;
    } else if *value != from {
        input.fail = true;
    }
}

/// Parse `s` with `fmt` (already checked to hold only supported conversions): the seconds since the epoch
/// and the number of bytes consumed, or None when the parse fails.
pub fn parse(fmt: &[u8], s: &[u8]) -> Option<(i64, usize)> {
    let mut input = Input { s, pos: 0, fail: false };
    let (mut yy, mut y2, mut m, mut d, mut j) = (NOT_A_YEAR, NOT_A_2DIGIT_YEAR, NOT_A_MONTH, NOT_A_DAY, NOT_A_DOY);
    let (mut hh, mut mm, mut ss) = (NOT_A_HOUR, NOT_A_MINUTE, NOT_A_SECOND);
    let mut k = 0;
    while k < fmt.len() && !input.fail {
        let c = fmt[k];
        k += 1;
        if c != b'%' {
            if matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r') {
                input.skip_space();
            } else {
                input.lit(c);
            }
            continue;
        }
        let conversion = fmt[k];
        k += 1;
        let inp = &mut input;
        match conversion {
            b'Y' => {
                let v = inp.signed(4);
                checked_set(&mut yy, v, NOT_A_YEAR, inp);
            }
            b'y' => {
                let v = inp.unsigned(1, 2);
                checked_set(&mut y2, v, NOT_A_2DIGIT_YEAR, inp);
            }
            b'm' => {
                let v = inp.signed(2);
                checked_set(&mut m, v, NOT_A_MONTH, inp);
            }
            b'd' | b'e' => {
                let v = inp.signed(2);
                checked_set(&mut d, v, NOT_A_DAY, inp);
            }
            b'j' => {
                let v = inp.unsigned(1, 3);
                checked_set(&mut j, v, NOT_A_DOY, inp);
            }
            b'H' => {
                let v = inp.unsigned(1, 2);
                checked_set(&mut hh, v, NOT_A_HOUR, inp);
            }
            b'M' => {
                let v = inp.unsigned(1, 2);
                checked_set(&mut mm, v, NOT_A_MINUTE, inp);
            }
            b'S' => {
                let v = inp.seconds();
                checked_set(&mut ss, v, NOT_A_SECOND, inp);
            }
            b'F' => {
                let ty = inp.signed(4);
                inp.lit(b'-');
                let tm = inp.unsigned(1, 2);
                inp.lit(b'-');
                let td = inp.unsigned(1, 2);
                checked_set(&mut yy, ty, NOT_A_YEAR, inp);
                checked_set(&mut m, tm, NOT_A_MONTH, inp);
                checked_set(&mut d, td, NOT_A_DAY, inp);
            }
            b'T' => {
                let th = inp.unsigned(1, 2);
                inp.lit(b':');
                let tmin = inp.unsigned(1, 2);
                inp.lit(b':');
                let ts = inp.seconds();
                checked_set(&mut hh, th, NOT_A_HOUR, inp);
                checked_set(&mut mm, tmin, NOT_A_MINUTE, inp);
                checked_set(&mut ss, ts, NOT_A_SECOND, inp);
            }
            _ => inp.lit(b'%'),
        }
    }
    if input.fail {
        return None;
    }
    if y2 != NOT_A_2DIGIT_YEAR {
        let century = if yy == NOT_A_YEAR {
            if y2 >= 69 {
                19
            } else {
                20
            }
        } else {
            (if yy >= 0 { yy } else { yy - 100 }) / 100
        };
        let ty = if century >= 0 { 100 * century + y2 } else { 100 * (century + 1) - if y2 == 0 { 100 } else { y2 } };
        if yy != NOT_A_YEAR && yy != ty {
            return None;
        }
        yy = ty;
    }
    if yy == NOT_A_YEAR {
        return None;
    }
    if j != NOT_A_DOY {
        let (_, tm, td) = civil_from_days(days_from_civil(yy, 1, 1) + j - 1);
        if m == 0 {
            m = tm;
        } else if m.rem_euclid(256) != tm {
            return None;
        }
        if d == 0 {
            d = td;
        } else if d.rem_euclid(256) != td {
            return None;
        }
    }
    if !(1..=12).contains(&m) || d < 1 || d > last_day(yy, m) {
        return None;
    }
    let h = if hh == NOT_A_HOUR { 0 } else { hh };
    let mi = if mm == NOT_A_MINUTE { 0 } else { mm };
    let sec = if ss == NOT_A_SECOND { 0 } else { ss };
    if h >= 24 || mi >= 60 || sec >= 60 {
        return None;
    }
    Some((days_from_civil(yy, m, d) * 86400 + h * 3600 + mi * 60 + sec, input.pos))
}
