// JSON string literal decoder: decodes one JSON string literal per stdin line (raw UTF-8, simple escapes and
// \uXXXX UTF-16 escapes with surrogate pairs) and lists the code points of the result with their byte offsets.
#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>
#include <utf8.h>

static const char QUOTE = 0x22; // the double quote character

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Decodes the literal; returns an empty string and sets `err` on failure.
static std::string decode(const std::string& lit, std::string& err)
{
    std::string out;
    if (lit.size() < 2 || lit.front() != QUOTE || lit.back() != QUOTE) {
        err = "not a quoted string";
        return out;
    }
    const char* p = lit.data() + 1;
    const char* end = lit.data() + lit.size() - 1;
    while (p < end) {
        if (*p == '\\') {
            if (p + 1 >= end) {
                err = "dangling backslash";
                return std::string();
            }
            char k = p[1];
            if (k == 'u') {
                std::u16string units;
                while (p + 1 < end && p[0] == '\\' && p[1] == 'u') {
                    if (end - p < 6) {
                        err = "short \\u escape";
                        return std::string();
                    }
                    unsigned v = 0;
                    for (int d = 2; d < 6; d++) {
                        int h = hexval(p[d]);
                        if (h < 0) {
                            err = "bad hex digit in \\u escape";
                            return std::string();
                        }
                        v = v * 16 + (unsigned)h;
                    }
                    units.push_back(static_cast<char16_t>(v));
                    p += 6;
                }
                utf8::utf16to8(units.begin(), units.end(), std::back_inserter(out));
                continue;
            }
            unsigned cp;
            switch (k) {
                case QUOTE: cp = 0x22; break;
                case '\\': cp = '\\'; break;
                case '/': cp = '/'; break;
                case 'b': cp = 0x08; break;
                case 'f': cp = 0x0C; break;
                case 'n': cp = 0x0A; break;
                case 'r': cp = 0x0D; break;
                case 't': cp = 0x09; break;
                default:
                    err = std::string("unknown escape \\") + k;
                    return std::string();
            }
            utf8::append(cp, std::back_inserter(out));
            p += 2;
            continue;
        }
        if (*p == QUOTE) {
            err = "unescaped quote";
            return std::string();
        }
        unsigned cp = utf8::next(p, end);
        if (cp < 0x20) {
            err = "control character in string";
            return std::string();
        }
        utf8::append(cp, std::back_inserter(out));
    }
    return out;
}

int main(int argc, char** argv)
{
    if (argc != 1) {
        std::fprintf(stderr, "usage: %s < literals\n", argv[0]);
        return 2;
    }
    std::string line;
    int n = 0, ok = 0;
    while (std::getline(std::cin, line)) {
        n++;
        if (line.empty()) continue;
        std::string err, out;
        try {
            out = decode(line, err);
        } catch (const utf8::invalid_utf16& ex) {
            std::printf("%d: error: %s (unit %04X)\n", n, ex.what(), (unsigned)ex.utf16_word());
            continue;
        } catch (const utf8::exception& ex) {
            std::printf("%d: error: %s in the raw text\n", n, ex.what());
            continue;
        }
        if (!err.empty()) {
            std::printf("%d: error: %s\n", n, err.c_str());
            continue;
        }
        ok++;
        std::printf("%d: %zu bytes: ", n, out.size());
        std::fwrite(out.data(), 1, out.size(), stdout);
        std::printf("\n");
        const char* b = out.data();
        const char* e = b + out.size();
        utf8::iterator<const char*> cur(b, b, e), stop(e, b, e);
        std::string listing;
        int shown = 0, count = 0;
        for (; cur != stop; ++cur) {
            count++;
            if (shown < 12) {
                char buf[40];
                std::snprintf(buf, sizeof buf, " U+%04X@%ld", (unsigned)*cur, (long)(cur.base() - b));
                listing += buf;
                shown++;
            }
        }
        std::printf("   %d code points:%s%s\n", count, listing.c_str(), count > shown ? " ..." : "");
    }
    std::printf("literals: %d, decoded: %d\n", n, ok);
    return 0;
}
