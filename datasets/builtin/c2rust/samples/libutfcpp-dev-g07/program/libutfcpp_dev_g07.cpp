// Word wrapper: re-flows UTF-8 text from stdin to lines of at most WIDTH code points, decoding the text with
// utf8::iterator, wrapping the code points and encoding each line back with utf32to8; reports the offending
// byte of invalid input.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>
#include <utf8.h>

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s WIDTH < text\n", argv[0]);
        return 2;
    }
    char* endp = nullptr;
    long width = std::strtol(argv[1], &endp, 10);
    if (*argv[1] == '\0' || *endp != '\0' || width < 1 || width > 1000) {
        std::printf("error: WIDTH must be an integer from 1 to 1000, got '%s'\n", argv[1]);
        return 0;
    }
    std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    const char* b = text.data();
    const char* e = b + text.size();
    std::u32string glyphs; // the code points of the whole input
    utf8::iterator<const char*> cur(b, b, e);
    try {
        while (cur.base() != e) {
            glyphs.push_back(*cur); // decodes at the current position (throws on a bad sequence)
            ++cur;
        }
    } catch (const utf8::invalid_utf8& ex) {
        // a failed decode leaves the iterator on the lead byte of the bad sequence
        std::printf("error: invalid UTF-8 byte 0x%02x at offset %ld\n", (unsigned)ex.utf8_octet(),
                    (long)(cur.base() - b));
        return 0;
    } catch (const utf8::invalid_code_point&) {
        std::printf("error: invalid code point at offset %ld\n", (long)(cur.base() - b));
        return 0;
    } catch (const utf8::not_enough_room&) {
        std::printf("error: truncated UTF-8 sequence at the end of the input\n");
        return 0;
    }

    std::vector<std::u32string> lines;
    std::u32string line;
    long line_len = 0;
    auto flush = [&]() {
        lines.push_back(line);
        line.clear();
        line_len = 0;
    };
    size_t i = 0, n = glyphs.size();
    while (i < n) {
        // one paragraph: up to the next U+000A
        size_t j = i;
        while (j < n && glyphs[j] != U'\n') j++;
        size_t k = i;
        while (k < j) {
            if (glyphs[k] == U' ') {
                k++;
                continue;
            }
            size_t w = k;
            while (w < j && glyphs[w] != U' ') w++;
            long wlen = (long)(w - k);
            if (line_len > 0 && line_len + 1 + wlen <= width) {
                line += U' ';
                line_len++;
            } else if (line_len > 0) {
                flush();
            }
            for (size_t g = k; g < w; g++) {
                if (line_len == width) flush();
                line += glyphs[g];
                line_len++;
            }
            k = w;
        }
        flush();
        i = j + 1; // skip the newline
    }
    size_t longest = 0;
    for (const std::u32string& l : lines) {
        longest = std::max(longest, l.size());
        std::string bytes;
        utf8::utf32to8(l.begin(), l.end(), std::back_inserter(bytes));
        std::printf("|");
        std::fwrite(bytes.data(), 1, bytes.size(), stdout);
        std::printf("|\n");
    }
    std::printf("lines: %zu, code points: %zu, longest line: %zu\n", lines.size(), n, longest);
    return 0;
}
