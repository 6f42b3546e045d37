// Unicode escape decoder: expands \uXXXX, \u{X...} and \U00XXXXXX escapes of stdin into UTF-8 with utf8::append.
#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>
#include <utf8.h>

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int main(int argc, char** argv)
{
    if (argc != 1) {
        std::fprintf(stderr, "usage: %s < escaped-text\n", argv[0]);
        return 2;
    }
    std::string input((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    std::string out;
    std::u32string escaped;
    size_t i = 0;
    while (i < input.size()) {
        char c = input[i];
        if (c != '\\' || i + 1 >= input.size()) {
            out += c;
            i++;
            continue;
        }
        char kind = input[i + 1];
        size_t start = i;
        unsigned long value = 0;
        size_t digits = 0;
        if (kind == 'u' && i + 2 < input.size() && input[i + 2] == '{') {
            size_t j = i + 3;
            while (j < input.size() && hexval(input[j]) >= 0 && digits < 8) {
                value = value * 16 + (unsigned long)hexval(input[j]);
                j++;
                digits++;
            }
            if (digits == 0 || j >= input.size() || input[j] != '}') {
                std::printf("error at byte %zu: malformed \\u{...} escape\n", start);
                return 0;
            }
            i = j + 1;
        } else if (kind == 'u' || kind == 'U') {
            size_t need = kind == 'u' ? 4 : 8;
            size_t j = i + 2;
            while (digits < need && j < input.size() && hexval(input[j]) >= 0) {
                value = value * 16 + (unsigned long)hexval(input[j]);
                j++;
                digits++;
            }
            if (digits != need) {
                std::printf("error at byte %zu: \\%c needs %zu hex digits\n", start, kind, need);
                return 0;
            }
            i = j;
        } else {
            if (kind == 'n') out += '\n';
            else if (kind == 't') out += '\t';
            else if (kind == '\\') out += '\\';
            else {
                out += '\\';
                out += kind;
            }
            i += 2;
            continue;
        }
        try {
            utf8::append(static_cast<char32_t>(value), out);
        } catch (const utf8::invalid_code_point& e) {
            std::printf("error at byte %zu: %s U+%04X\n", start, e.what(), (unsigned)e.code_point());
            return 0;
        }
        escaped.push_back(static_cast<char32_t>(value));
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    if (out.empty() || out.back() != '\n') std::printf("\n");
    std::printf("-- escapes: %zu, output bytes: %zu\n", escaped.size(), out.size());
    std::string joined = utf8::utf32to8(escaped);
    std::printf("-- escaped characters: ");
    std::fwrite(joined.data(), 1, joined.size(), stdout);
    std::printf("\n");
    return 0;
}
