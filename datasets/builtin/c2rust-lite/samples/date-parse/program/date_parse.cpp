// Parse timestamps with Howard Hinnant's date::parse into date::sys_seconds and print them back with
// date::format. One timestamp per stdin line, parsed with the --format string; the program accepts only the
// numeric conversions %Y %y %m %d %e %j %H %M %S %F %T and %% (plus literal characters).
//
// Usage: date_parse --format FMT < lines
#include <date/date.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>

static void usage(const char *message) {
    std::fprintf(stderr, "usage error: %s\n", message);
    std::exit(2);
}

// Every '%' must start one of the supported conversions (no widths, no E/O modifiers, no trailing '%').
static bool supported(const std::string &fmt) {
    for (size_t i = 0; i < fmt.size(); ++i) {
        if (fmt[i] != '%') continue;
        if (++i == fmt.size() || std::strchr("YymdejHMSFT%", fmt[i]) == nullptr || fmt[i] == '\0') return false;
    }
    return true;
}

int main(int argc, char **argv) {
    std::string fmt;
    bool have_format = false;
    for (int i = 1; i < argc; i += 2) {
        if (i + 1 >= argc) usage("missing value");
        if (std::strcmp(argv[i], "--format") == 0) {
            fmt = argv[i + 1];
            have_format = true;
        } else {
            usage("unknown argument");
        }
    }
    if (!have_format) usage("--format is required");
    if (!supported(fmt)) {
        std::cout << "error: unsupported format\n";
        return 0;
    }
    std::string line;
    long number = 0;
    while (std::getline(std::cin, line)) {
        ++number;
        std::istringstream in(line);
        date::sys_seconds tp;
        in >> date::parse(fmt, tp);
        if (in.fail()) {
            std::cout << number << ": error: cannot parse\n";
            continue;
        }
        in.clear();
        long long unread = (long long)line.size() - (long long)in.tellg();
        std::cout << number << ": " << date::format("%F %T", tp) << " = " << tp.time_since_epoch().count();
        if (unread > 0) std::cout << " (" << unread << " unread)";
        std::cout << "\n";
    }
    return 0;
}
