// Code point cut: prints, for every line of stdin, the substring of LENGTH code points starting at code point
// START (negative START counts from the end), with its code point count and its UTF-16 length.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <utf8.h>

static bool parse_long(const char* s, long& out)
{
    char* end = nullptr;
    if (*s == '\0') return false;
    long v = std::strtol(s, &end, 10);
    if (*end != '\0' || v < -1000000 || v > 1000000) return false;
    out = v;
    return true;
}

int main(int argc, char** argv)
{
    if (argc < 2 || argc > 3) {
        std::fprintf(stderr, "usage: %s START [LENGTH] < lines\n", argv[0]);
        return 2;
    }
    long start = 0, length = -1;
    if (!parse_long(argv[1], start)) {
        std::printf("error: START must be an integer between -1000000 and 1000000, got '%s'\n", argv[1]);
        return 0;
    }
    if (argc == 3 && (!parse_long(argv[2], length) || length < 0)) {
        std::printf("error: LENGTH must be an integer between 0 and 1000000, got '%s'\n", argv[2]);
        return 0;
    }
    std::string line;
    int n = 0;
    while (std::getline(std::cin, line)) {
        n++;
        std::u32string cps;
        try {
            cps = utf8::utf8to32(line);
        } catch (const utf8::exception&) {
            std::printf("%d: error: not valid UTF-8\n", n);
            continue;
        }
        long total = (long)cps.size();
        long from = start < 0 ? total + start : start;
        if (from < 0) from = 0;
        if (from > total) from = total;
        long count = length < 0 || from + length > total ? total - from : length;
        std::string::const_iterator a = line.begin();
        utf8::advance(a, from, line.cend());
        std::string::const_iterator b = a;
        utf8::advance(b, count, line.cend());
        std::string piece(a, b);
        size_t units = 0; // UTF-16 code units: two for a code point above U+FFFF (a surrogate pair)
        for (long k = from; k < from + count; k++) units += cps[k] > 0xFFFF ? 2 : 1;
        std::printf("%d: [%ld..%ld) of %ld code points, %zu bytes, %zu UTF-16 units: ", n, from, from + count, total,
                    piece.size(), units);
        std::fwrite(piece.data(), 1, piece.size(), stdout);
        std::printf("\n");
    }
    std::printf("lines: %d\n", n);
    return 0;
}
