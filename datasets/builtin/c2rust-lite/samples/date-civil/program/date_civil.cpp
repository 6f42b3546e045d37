// Civil-date arithmetic with Howard Hinnant's date library: validate a year-month-day, convert it to a day
// count since 1970-01-01 (days_from_civil), name its weekday and step it by a number of days.
//
// Usage: date_civil --date Y-M-D [--days N]
#include <date/date.h>

#include <cstdio>
#include <cstring>
#include <string>

using namespace date;

static const char *WEEKDAY_NAMES[7] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};

// The fields as the program prints them: the year unpadded, month and day two digits, a suffix when invalid.
static void print_ymd(const year_month_day &ymd) {
    std::printf("%d-%02u-%02u%s", int(ymd.year()), unsigned(ymd.month()), unsigned(ymd.day()),
                ymd.ok() ? "" : " is not a valid year_month_day");
}

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
        std::printf("error: malformed date\n");
        return 0;
    }
    if (y < -32767 || y > 32767) {
        std::printf("error: year out of range\n");
        return 0;
    }
    if (m > 255 || d > 255) {
        std::printf("error: month or day out of range\n");
        return 0;
    }
    long n = 0;
    if (have_days) {
        size_t p = 0;
        bool plus = !days_arg.empty() && days_arg[0] == '+';
        if (plus) p = 1;
        if (!read_number(days_arg, &p, !plus, 9, &n) || p != days_arg.size() || n < -9999999 || n > 9999999) {
            std::printf("error: malformed days\n");
            return 0;
        }
    }

    year_month_day ymd{year{int(y)}, month{unsigned(m)}, day{unsigned(d)}};
    std::printf("date: ");
    print_ymd(ymd);
    std::printf("\nok: %s\n", ymd.ok() ? "true" : "false");
    if (!ymd.ok()) {
        std::printf("month ok: %s\n", ymd.month().ok() ? "true" : "false");
        std::printf("day ok: %s\n", ymd.day().ok() ? "true" : "false");
        return 0;
    }
    sys_days sd{ymd};
    std::printf("days: %d\n", int(sd.time_since_epoch().count()));
    std::printf("weekday: %s\n", WEEKDAY_NAMES[weekday{sd}.c_encoding()]);
    if (have_days) {
        sys_days lo{year_month_day{year{-32767}, month{1}, day{1}}};
        sys_days hi{year_month_day{year{32767}, month{12}, day{31}}};
        sys_days moved = sd + days{n};
        if (moved < lo || moved > hi) {
            std::printf("moved: out of range\n");
        } else {
            std::printf("moved: ");
            print_ymd(year_month_day{moved});
            std::printf(" (%s)\n", WEEKDAY_NAMES[weekday{moved}.c_encoding()]);
        }
    }
    return 0;
}
