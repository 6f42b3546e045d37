// A calendar command script over Howard Hinnant's date library: month/year arithmetic with invalid-day
// results, normalisation and clamping, last day of month, nth and last weekday of a month, day differences,
// day of year, ISO week dates and leap years. One command per stdin line, one result line per command.
//
// Usage: date_calendar < script      (no arguments)
#include <date/date.h>
#include <date/iso_week.h>

#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace date;

static const char *WEEKDAY_NAMES[7] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
static const long MIN_YEAR = -32767, MAX_YEAR = 32767;

struct Failure {
    std::string message;
};

// Digits with an optional leading sign ('-' only, or '+'/'-' when plus_ok); at most max_digits digits.
static bool read_number(const std::string &s, size_t *pos, bool minus_ok, bool plus_ok, int max_digits, long *out) {
    bool negative = false;
    if (*pos < s.size() && ((minus_ok && s[*pos] == '-') || (plus_ok && s[*pos] == '+'))) {
        negative = s[*pos] == '-';
        ++*pos;
    }
    long value = 0;
    int digits = 0;
    while (*pos < s.size() && s[*pos] >= '0' && s[*pos] <= '9') {
        if (++digits > max_digits) return false;
        value = value * 10 + (s[*pos] - '0');
        ++*pos;
    }
    if (digits == 0) return false;
    *out = negative ? -value : value;
    return true;
}

static long parse_int(const std::string &s) {
    size_t pos = 0;
    long n;
    if (!read_number(s, &pos, true, true, 9, &n) || pos != s.size()) throw Failure{"bad number"};
    return n;
}

static void check_year(long y) {
    if (y < MIN_YEAR || y > MAX_YEAR) throw Failure{"year out of range"};
}

// Y-M: the month must be 1..12.
static year_month parse_year_month(const std::string &s) {
    size_t pos = 0;
    long y, m;
    if (!read_number(s, &pos, true, false, 6, &y) || pos >= s.size() || s[pos++] != '-' ||
        !read_number(s, &pos, false, false, 2, &m) || pos != s.size())
        throw Failure{"bad year-month"};
    check_year(y);
    if (m < 1 || m > 12) throw Failure{"bad month"};
    return year{int(y)} / month{unsigned(m)};
}

// Y-M-D: month 1..12; the day must make a valid date unless any_day (then 0..99).
static year_month_day parse_date(const std::string &s, bool any_day) {
    size_t pos = 0;
    long y, m, d;
    if (!read_number(s, &pos, true, false, 6, &y) || pos >= s.size() || s[pos++] != '-' ||
        !read_number(s, &pos, false, false, 2, &m) || pos >= s.size() || s[pos++] != '-' ||
        !read_number(s, &pos, false, false, 2, &d) || pos != s.size())
        throw Failure{"bad date"};
    check_year(y);
    if (m < 1 || m > 12) throw Failure{"bad month"};
    year_month_day ymd{year{int(y)}, month{unsigned(m)}, day{unsigned(d)}};
    if (!any_day && !ymd.ok()) throw Failure{"invalid date"};
    return ymd;
}

static weekday parse_weekday(const std::string &s) {
    for (unsigned i = 0; i < 7; ++i)
        if (s == WEEKDAY_NAMES[i]) return weekday{i};
    throw Failure{"bad weekday"};
}

static std::string show(const year_month_day &ymd) {
    std::ostringstream out;
    out << ymd;
    return out.str();
}

static std::string show_days(sys_days sd) {
    if (sd < sys_days{year{int(MIN_YEAR)} / January / 1} || sd > sys_days{year{int(MAX_YEAR)} / December / 31})
        throw Failure{"out of range"};
    return show(year_month_day{sd});
}

static void need(const std::vector<std::string> &t, size_t n) {
    if (t.size() != n + 1) throw Failure{"expected " + std::to_string(n) + " argument" + (n == 1 ? "" : "s")};
}

static std::string run(const std::vector<std::string> &t) {
    const std::string &cmd = t[0];
    std::ostringstream out;
    if (cmd == "weekday") {
        need(t, 1);
        out << weekday{sys_days{parse_date(t[1], false)}};
    } else if (cmd == "add-days") {
        need(t, 2);
        sys_days from{parse_date(t[1], false)};
        long n = parse_int(t[2]);
        out << show_days(from + days{n});
    } else if (cmd == "add-months" || cmd == "add-years") {
        need(t, 2);
        year_month_day ymd = parse_date(t[1], false);
        long n = parse_int(t[2]);
        long total = cmd == "add-years" ? long(int(ymd.year())) * 12 + n * 12 + long(unsigned(ymd.month())) - 1
                                        : long(int(ymd.year())) * 12 + long(unsigned(ymd.month())) - 1 + n;
        long y = total >= 0 ? total / 12 : (total - 11) / 12;
        check_year(y);
        out << (cmd == "add-years" ? ymd + years{n} : ymd + months{n});
    } else if (cmd == "normalize") {
        need(t, 1);
        out << show_days(sys_days{parse_date(t[1], true)});
    } else if (cmd == "clamp") {
        need(t, 1);
        year_month_day ymd = parse_date(t[1], true);
        out << (ymd.ok() ? ymd : year_month_day{ymd.year() / ymd.month() / last});
    } else if (cmd == "last") {
        need(t, 1);
        year_month ym = parse_year_month(t[1]);
        year_month_day_last ymdl = ym.year() / ym.month() / last;
        out << year_month_day{ymdl} << " (" << unsigned(ymdl.day()) << " days)";
    } else if (cmd == "nth") {
        need(t, 3);
        year_month ym = parse_year_month(t[1]);
        weekday wd = parse_weekday(t[2]);
        long n = parse_int(t[3]);
        if (n < 1 || n > 5) throw Failure{"index out of range"};
        year_month_weekday ymwd = ym.year() / ym.month() / wd[unsigned(n)];
        if (ymwd.ok())
            out << year_month_day{ymwd};
        else
            out << "none";
    } else if (cmd == "last-weekday") {
        need(t, 2);
        year_month ym = parse_year_month(t[1]);
        weekday wd = parse_weekday(t[2]);
        out << year_month_day{ym.year() / ym.month() / wd[last]};
    } else if (cmd == "diff") {
        need(t, 2);
        sys_days from{parse_date(t[1], false)};
        sys_days to{parse_date(t[2], false)};
        out << (to - from).count();
    } else if (cmd == "doy") {
        need(t, 1);
        year_month_day ymd = parse_date(t[1], false);
        out << (sys_days{ymd} - sys_days{ymd.year() / January / 1}).count() + 1;
    } else if (cmd == "iso") {
        need(t, 1);
        year_month_day ymd = parse_date(t[1], false);
        if (int(ymd.year()) == MIN_YEAR || int(ymd.year()) == MAX_YEAR) throw Failure{"out of range"};
        out << iso_week::year_weeknum_weekday{sys_days{ymd}};
    } else if (cmd == "leap") {
        need(t, 1);
        long y = parse_int(t[1]);
        check_year(y);
        out << (year{int(y)}.is_leap() ? "true" : "false");
    } else if (cmd == "weekday-diff") {
        need(t, 2);
        weekday a = parse_weekday(t[1]);
        weekday b = parse_weekday(t[2]);
        out << (a - b).count();
    } else {
        throw Failure{"unknown command"};
    }
    return out.str();
}

int main(int argc, char **) {
    if (argc != 1) {
        std::fprintf(stderr, "usage error: no arguments expected\n");
        return 2;
    }
    std::string line;
    long number = 0;
    while (std::getline(std::cin, line)) {
        ++number;
        std::istringstream words(line);
        std::vector<std::string> tokens;
        for (std::string w; words >> w;) tokens.push_back(w);
        if (tokens.empty() || tokens[0][0] == '#') continue;
        std::string result;
        try {
            result = run(tokens);
        } catch (const Failure &f) {
            result = "error: " + f.message;
        }
        std::cout << number << ": " << result << "\n";
    }
    return 0;
}
