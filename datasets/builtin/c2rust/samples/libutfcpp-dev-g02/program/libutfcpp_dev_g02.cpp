// UTF-8 sanitizer: replaces every invalid sequence of stdin with a replacement character (U+FFFD by default).
#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>
#include <utf8.h>

int main(int argc, char** argv)
{
    if (argc > 2) {
        std::fprintf(stderr, "usage: %s [REPLACEMENT_HEX] < text\n", argv[0]);
        return 2;
    }
    unsigned long replacement = 0xFFFD;
    if (argc == 2) {
        std::string arg = argv[1];
        if (arg.size() > 2 && (arg[0] == 'U' || arg[0] == 'u') && arg[1] == '+') arg = arg.substr(2);
        if (arg.empty() || arg.size() > 8 || arg.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) {
            std::printf("error: replacement must be a hex code point like FFFD or U+003F, got '%s'\n", argv[1]);
            return 0;
        }
        replacement = std::stoul(arg, nullptr, 16);
    }
    std::string input((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    std::string clean;
    try {
        clean = utf8::replace_invalid(input, static_cast<char32_t>(replacement));
    } catch (const utf8::invalid_code_point&) {
        std::printf("error: U+%04lX cannot be encoded as UTF-8 (surrogate or above U+10FFFF)\n", replacement);
        return 0;
    }
    std::fwrite(clean.data(), 1, clean.size(), stdout);
    if (clean.empty() || clean.back() != '\n') std::printf("\n");
    std::printf("-- %zu bytes in, %zu bytes out, %s\n", input.size(), clean.size(),
                clean == input ? "unchanged" : "changed");
    return 0;
}
