// UTF-8 cursor: runs cursor commands (next, peek, prior, advance=N, back=N, goto=N, distance, rest, check) given
// as arguments over the UTF-8 text read from stdin, with utf8cpp's checked navigation functions.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <string>
#include <utf8.h>

static bool parse_count(const std::string& s, long& out)
{
    if (s.empty() || s.size() > 7 || s.find_first_not_of("0123456789") != std::string::npos) return false;
    out = std::atol(s.c_str());
    return true;
}

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s COMMAND... < text\n", argv[0]);
        return 2;
    }
    std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    const char* b = text.data();
    const char* e = b + text.size();
    const char* bad = utf8::find_invalid(b, e);
    std::printf("text: %zu bytes, ", text.size());
    if (bad == e)
        std::printf("valid UTF-8\n");
    else
        std::printf("first invalid sequence at byte %ld\n", (long)(bad - b));
    const char* cur = b;
    for (int i = 1; i < argc; i++) {
        std::string cmd = argv[i];
        std::string name = cmd, arg;
        size_t eq = cmd.find('=');
        if (eq != std::string::npos) {
            name = cmd.substr(0, eq);
            arg = cmd.substr(eq + 1);
        }
        std::printf("%s: ", cmd.c_str());
        try {
            if (name == "next" && eq == std::string::npos) {
                const char* t = cur;
                unsigned cp = utf8::next(t, e);
                cur = t;
                std::printf("U+%04X, now at byte %ld\n", cp, (long)(cur - b));
            } else if (name == "peek" && eq == std::string::npos) {
                unsigned cp = utf8::peek_next(cur, e);
                std::printf("U+%04X, still at byte %ld\n", cp, (long)(cur - b));
            } else if (name == "prior" && eq == std::string::npos) {
                const char* t = cur;
                unsigned cp = utf8::prior(t, b);
                cur = t;
                std::printf("U+%04X, now at byte %ld\n", cp, (long)(cur - b));
            } else if (name == "advance" || name == "back") {
                long n;
                if (!parse_count(arg, n)) {
                    std::printf("error: %s needs a count from 0 to 9999999\n", name.c_str());
                    continue;
                }
                const char* t = cur;
                if (name == "advance") {
                    utf8::advance(t, n, e);
                } else {
                    for (long k = 0; k < n; k++) utf8::prior(t, b);
                }
                cur = t;
                std::printf("now at byte %ld\n", (long)(cur - b));
            } else if (name == "goto") {
                long n;
                if (!parse_count(arg, n) || n > (long)text.size()) {
                    std::printf("error: goto needs a byte offset from 0 to %zu\n", text.size());
                    continue;
                }
                cur = b + n;
                std::printf("now at byte %ld\n", n);
            } else if (name == "distance" && eq == std::string::npos) {
                long d = (long)utf8::distance(b, cur);
                std::printf("%ld code points before byte %ld\n", d, (long)(cur - b));
            } else if (name == "rest" && eq == std::string::npos) {
                long d = (long)utf8::distance(cur, e);
                std::printf("%ld code points from byte %ld to the end\n", d, (long)(cur - b));
            } else if (name == "check" && eq == std::string::npos) {
                const char* f = utf8::find_invalid(cur, e);
                if (f == e)
                    std::printf("valid from byte %ld to the end\n", (long)(cur - b));
                else
                    std::printf("invalid sequence at byte %ld\n", (long)(f - b));
            } else {
                std::printf("error: unknown command\n");
            }
        } catch (const utf8::invalid_utf8& ex) {
            std::printf("error: %s (byte 0x%02x)\n", ex.what(), (unsigned)ex.utf8_octet());
        } catch (const utf8::invalid_code_point& ex) {
            std::printf("error: %s (U+%04X)\n", ex.what(), (unsigned)ex.code_point());
        } catch (const utf8::not_enough_room& ex) {
            std::printf("error: %s\n", ex.what());
        }
    }
    std::printf("final position: byte %ld of %zu\n", (long)(cur - b), text.size());
    return 0;
}
