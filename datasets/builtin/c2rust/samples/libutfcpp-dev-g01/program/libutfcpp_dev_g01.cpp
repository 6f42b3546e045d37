// UTF-8 validator: checks every line of stdin with utf8cpp and lists the byte offsets where invalid sequences start.
#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>
#include <string_view>
#include <utf8.h>

int main(int argc, char** argv)
{
    if (argc != 1) {
        std::fprintf(stderr, "usage: %s < text\n", argv[0]);
        return 2;
    }
    std::string input((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    std::string_view all(input);
    size_t line_no = 0, valid_lines = 0, bad_total = 0;
    size_t pos = 0;
    while (pos < all.size()) {
        size_t nl = all.find('\n', pos);
        size_t stop = nl == std::string_view::npos ? all.size() : nl;
        std::string_view line = all.substr(pos, stop - pos);
        line_no++;
        // every place where an invalid sequence starts: restart the scan one byte further each time
        std::string offsets;
        size_t count = 0, from = 0;
        while (from <= line.size()) {
            size_t bad = utf8::find_invalid(line.substr(from));
            if (bad == std::string::npos) break;
            size_t at = from + bad;
            if (count < 10) {
                char buf[32];
                std::snprintf(buf, sizeof buf, "%s%zu(0x%02x)", count ? " " : "", at,
                              (unsigned)(unsigned char)line[at]);
                offsets += buf;
            }
            count++;
            from = at + 1;
        }
        if (count == 0) {
            valid_lines++;
            std::printf("%zu: ok, %zu bytes\n", line_no, line.size());
        } else {
            bad_total += count;
            std::printf("%zu: invalid, %zu bad sequence start%s: %s%s\n", line_no, count, count == 1 ? "" : "s",
                        offsets.c_str(), count > 10 ? " ..." : "");
        }
        pos = stop + 1;
    }
    size_t first = utf8::find_invalid(all);
    std::printf("lines: %zu, valid: %zu, invalid: %zu, bad sequence starts: %zu\n", line_no, valid_lines,
                line_no - valid_lines, bad_total);
    if (first == std::string::npos)
        std::printf("first invalid byte: none\n");
    else
        std::printf("first invalid byte: %zu\n", first);
    std::printf("whole input valid: %s\n", utf8::is_valid(all) ? "yes" : "no");
    return 0;
}
