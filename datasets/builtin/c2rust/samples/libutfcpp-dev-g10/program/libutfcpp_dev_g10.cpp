// Text statistics and code point reversal: validates stdin once (checked), then walks it with utf8::unchecked
// (distance, next, prior, iterator) to report per-line statistics and each line reversed by code points.
#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>
#include <utf8.h>

int main(int argc, char** argv)
{
    if (argc > 2) {
        std::fprintf(stderr, "usage: %s [MAXLINES] < text\n", argv[0]);
        return 2;
    }
    long max_lines = 20;
    if (argc == 2) {
        std::string a = argv[1];
        if (a.empty() || a.size() > 6 || a.find_first_not_of("0123456789") != std::string::npos) {
            std::printf("error: MAXLINES must be a number from 0 to 999999, got '%s'\n", argv[1]);
            return 0;
        }
        max_lines = std::stol(a);
    }
    std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    bool bom = utf8::starts_with_bom(text);
    std::string body = bom ? text.substr(3) : text;
    std::printf("bom: %s\n", bom ? "yes" : "no");
    if (!utf8::is_valid(body)) {
        std::printf("error: the input is not valid UTF-8\n");
        return 0;
    }
    // From here on the text is known to be valid: the unchecked functions are safe and faster.
    const char* b = body.data();
    const char* e = b + body.size();
    long cps = (long)utf8::unchecked::distance(b, e);
    std::u16string u16;
    utf8::unchecked::utf8to16(b, e, std::back_inserter(u16));
    std::u32string u32;
    utf8::unchecked::utf8to32(b, e, std::back_inserter(u32));
    long astral = 0, nonascii = 0;
    for (char32_t c : u32) {
        if (c >= 0x10000) astral++;
        if (c >= 0x80) nonascii++;
    }
    std::printf("bytes: %zu, code points: %ld, utf-16 units: %zu, non-ascii: %ld, astral: %ld\n", body.size(), cps,
                u16.size(), nonascii, astral);

    long line_no = 0;
    const char* line_start = b;
    while (line_start < e) {
        const char* line_end = line_start;
        while (line_end < e && *line_end != '\n') line_end++;
        line_no++;
        if (line_no <= max_lines) {
            // widest code point (by UTF-8 length, first one wins) and its byte offset, via the iterator
            utf8::unchecked::iterator<const char*> cur(line_start), stop(line_end);
            long count = 0, widest_len = 0, widest_at = -1;
            unsigned widest = 0;
            for (; cur != stop; ++cur) {
                const char* at = cur.base();
                const char* after = at;
                unsigned c = utf8::unchecked::next(after);
                long len = (long)(after - at);
                if (len > widest_len) {
                    widest_len = len;
                    widest = c;
                    widest_at = (long)(at - b);
                }
                count++;
            }
            // reversed by code points: walk back from the end with prior, re-encode with append
            std::string reversed;
            const char* p = line_end;
            while (p > line_start) {
                unsigned c = utf8::unchecked::prior(p);
                char buf[4];
                char* q = utf8::unchecked::append(c, buf);
                reversed.append(buf, (size_t)(q - buf));
            }
            std::printf("line %ld: %ld code points, %ld bytes", line_no, count, (long)(line_end - line_start));
            if (widest_at >= 0) std::printf(", widest U+%04X (%ld bytes) at byte %ld", widest, widest_len, widest_at);
            std::printf("\n  reversed: ");
            std::fwrite(reversed.data(), 1, reversed.size(), stdout);
            std::printf("\n");
        }
        line_start = line_end + 1;
    }
    if (line_no > max_lines) std::printf("... %ld more lines\n", line_no - max_lines);
    std::printf("lines: %ld\n", line_no);
    return 0;
}
