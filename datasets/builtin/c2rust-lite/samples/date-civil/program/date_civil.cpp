// Civil-date arithmetic with Howard Hinnant's date library: validate a year-month-day, convert it to a day
// count since 1970-01-01 (days_from_civil), name its weekday and step it by a number of days.
//
// Usage: date_civil --date Y-M-D [--days N]
#include <date/date.h>

#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

using namespace date;

// Parse an optional '-' then 1..max_digits ASCII digits from s[*pos]; false if malformed.
static bool read_number(const std::string &s, size_t *pos, bool allow_sign, int max_digits, long *out) {
    bool negative = false;
    if (allow_sign && *pos < s.size() && s[*pos] == '-') {
        negative = true;
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

static void usage(const char *message) {
    std::fprintf(stderr, "usage error: %s\n", message);
    std::exit(2);
}

int main(int argc, char **argv) {
    std::string date_arg, days_arg;
    bool have_date = false, have_days = false;
    for (int i = 1; i < argc; i += 2) {
        if (i + 1 >= argc) usage("missing value");
        if (std::strcmp(argv[i], "--date") == 0) {
            date_arg = argv[i + 1];
            have_date = true;
        } else if (std::strcmp(argv[i], "--days") == 0) {
            days_arg = argv[i + 1];
            have_days = true;
        } else {
            usage("unknown argument");
        }
    }
    if (!have_date) usage("--date is required");

    long y, m, d;
    size_t pos = 0;
    if (!read_number(date_arg, &pos, true, 6, &y) || pos >= date_arg.size() || date_arg[pos++] != '-' ||
        !read_number(date_arg, &pos, false, 3, &m) || pos >= date_arg.size() || date_arg[pos++] != '-' ||
        !read_number(date_arg, &pos, false, 3, &d) || pos != date_arg.size()) {
        std::cout << "error: malformed date\n";
        return 0;
    }
    if (y < -32767 || y > 32767) {
        std::cout << "error: year out of range\n";
        return 0;
    }
    if (m > 255 || d > 255) {
        std::cout << "error: month or day out of range\n";
        return 0;
    }
    long n = 0;
    if (have_days) {
        size_t p = 0;
        bool plus = !days_arg.empty() && days_arg[0] == '+';
        if (plus) p = 1;
        if (!read_number(days_arg, &p, !plus, 9, &n) || p != days_arg.size() || n < -9999999 || n > 9999999) {
            std::cout << "error: malformed days\n";
            return 0;
        }
    }

    year_month_day ymd{year{int(y)}, month{unsigned(m)}, day{unsigned(d)}};
    std::cout << "date: " << ymd << "\n";
    std::cout << "ok: " << (ymd.ok() ? "true" : "false") << "\n";
    if (!ymd.ok()) {
        std::cout << "month ok: " << (ymd.month().ok() ? "true" : "false") << "\n";
        std::cout << "day ok: " << (ymd.day().ok() ? "true" : "false") << "\n";
        return 0;
    }
    sys_days sd{ymd};
    std::cout << "days: " << sd.time_since_epoch().count() << "\n";
    std::cout << "weekday: " << weekday{sd} << "\n";
    if (have_days) {
        sys_days lo{year{-32767} / January / 1}, hi{year{32767} / December / 31};
        sys_days moved = sd + days{n};
        if (moved < lo || moved > hi) {
            std::cout << "moved: out of range\n";
        } else {
            year_month_day out{moved};
            std::cout << "moved: " << out << " (" << weekday{moved} << ")\n";
        }
    }
    return 0;
}
