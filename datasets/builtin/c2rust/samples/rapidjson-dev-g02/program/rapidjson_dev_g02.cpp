// Decodes UTF-16 code units given in hex (surrogate pairs included) into code points and re-encodes them as UTF-8.
#include "rapidjson/encodings.h"
#include "rapidjson/stream.h"
#include "rapidjson/stringbuffer.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace rapidjson;

int main(int argc, char **argv)
{
    std::vector<uint16_t> units;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if ((arg[0] == 'U' || arg[0] == 'u') && arg[1] == '+') arg += 2;
        char *end = 0;
        size_t len = std::strlen(arg);
        unsigned long val = std::strtoul(arg, &end, 16);
        if (len == 0 || len > 4 || *end != 0 || std::strspn(arg, "0123456789abcdefABCDEF") != len) {
            std::printf("error: '%s' is not a 16-bit hex code unit\n", argv[i]);
            return 0;
        }
        if (val == 0) {
            std::printf("error: code unit 0000 is not allowed\n");
            return 0;
        }
        units.push_back(static_cast<uint16_t>(val));
    }
    size_t count = units.size();
    units.push_back(0);
    units.push_back(0);

    typedef UTF16<uint16_t> U16;
    GenericStringStream<U16> in(&units[0]);
    StringBuffer out;
    size_t pos = 0;
    int points = 0, bad = 0;
    while (pos < count) {
        uint16_t first = units[pos];
        size_t used = (first >= 0xD800 && first <= 0xDBFF) ? 2 : 1;
        unsigned cp = 0;
        bool ok = U16::Decode(in, &cp);
        if (ok) {
            StringBuffer one;
            UTF8<>::Encode(one, cp);
            UTF8<>::Encode(out, cp);
            const char *bytes = one.GetString();
            std::printf("U+%04X:", cp);
            for (size_t k = 0; bytes[k]; k++) std::printf(" %02x", static_cast<unsigned char>(bytes[k]));
            std::printf("\n");
            points++;
        } else {
            std::printf("invalid at unit %zu (%04X)\n", pos + 1, first);
            bad++;
        }
        pos += used;
    }
    std::printf("utf8: %s\n", out.GetString());
    std::printf("%zu units, %d code points, %d invalid\n", count, points, bad);
    return 0;
}
