// Formats decimal numbers the way RapidJSON's Writer writes doubles (shortest round-trip digits), with an optional cap on decimal places.
#include "rapidjson/writer.h"
#include "rapidjson/stringbuffer.h"
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace rapidjson;

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s MAX_DECIMALS|none [NUMBER...]\n", argv[0]);
        return 2;
    }
    int places = -1;
    if (std::strcmp(argv[1], "none") != 0) {
        char *end = 0;
        long p = std::strtol(argv[1], &end, 10);
        if (argv[1][0] == 0 || *end != 0 || p < 1 || p > 324) {
            std::printf("error: decimal places must be 1..324 or none, got '%s'\n", argv[1]);
            return 0;
        }
        places = static_cast<int>(p);
    }
    int written = 0;
    for (int i = 2; i < argc; i++) {
        const char *text = argv[i];
        char *end = 0;
        errno = 0;
        double value = std::strtod(text, &end);
        if (text[0] == 0 || *end != 0) {
            std::printf("error: '%s' is not a number\n", text);
            continue;
        }
        StringBuffer buf;
        Writer<StringBuffer> w(buf);
        if (places > 0)
            w.SetMaxDecimalPlaces(places);
        if (!w.Double(value)) {
            std::printf("error: %s is %s, not allowed in JSON\n", text, value != value ? "NaN" : "infinite");
            continue;
        }
        std::printf("%s -> %s%s\n", text, buf.GetString(), errno == ERANGE ? " (out of range)" : "");
        written++;
    }
    std::printf("%d of %d written\n", written, argc - 2);
    return 0;
}
