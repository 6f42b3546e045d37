// Code point tool: "dump" lists the code points of UTF-8 text from stdin (UTF-32); "build" encodes the code
// points given as arguments (hex) into UTF-8.
#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>
#include <utf8.h>

static const char* plane_name(char32_t c)
{
    if (c < 0x80) return "ascii";
    if (c < 0x10000) return "bmp";
    if (c < 0x20000) return "smp";
    if (c < 0x30000) return "sip";
    return "astral";
}

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s dump < text | %s build HEX...\n", argv[0], argv[0]);
        return 2;
    }
    std::string mode = argv[1];
    if (mode == "dump") {
        if (argc != 2) {
            std::printf("error: dump takes no arguments\n");
            return 0;
        }
        std::string input((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
        std::u32string cps;
        try {
            cps = utf8::utf8to32(input);
        } catch (const utf8::invalid_code_point&) {
            std::printf("error: the input encodes a surrogate or a code point above U+10FFFF\n");
            return 0;
        } catch (const utf8::invalid_utf8&) {
            std::printf("error: the input is not valid UTF-8\n");
            return 0;
        } catch (const utf8::not_enough_room&) {
            std::printf("error: the input ends in the middle of a UTF-8 sequence\n");
            return 0;
        }
        size_t counts[5] = {0, 0, 0, 0, 0};
        for (size_t i = 0; i < cps.size(); i++) {
            char32_t c = cps[i];
            const char* plane = plane_name(c);
            std::printf("%zu U+%04X %s\n", i, (unsigned)c, plane);
            counts[c < 0x80 ? 0 : c < 0x10000 ? 1 : c < 0x20000 ? 2 : c < 0x30000 ? 3 : 4]++;
        }
        std::printf("bytes: %zu, code points: %zu (ascii %zu, bmp %zu, smp %zu, sip %zu, astral %zu)\n", input.size(),
                    cps.size(), counts[0], counts[1], counts[2], counts[3], counts[4]);
    } else if (mode == "build") {
        std::u32string cps;
        for (int i = 2; i < argc; i++) {
            std::string hex = argv[i];
            if (hex.size() > 2 && (hex[0] == 'U' || hex[0] == 'u') && hex[1] == '+') hex = hex.substr(2);
            if (hex.empty() || hex.size() > 8 || hex.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) {
                std::printf("error: argument %d is not a hex code point: '%s'\n", i - 1, argv[i]);
                return 0;
            }
            cps.push_back(static_cast<char32_t>(std::stoul(hex, nullptr, 16)));
        }
        std::string text;
        try {
            text = utf8::utf32to8(cps);
        } catch (const utf8::invalid_code_point&) {
            std::printf("error: a code point is a surrogate or above U+10FFFF\n");
            return 0;
        }
        std::printf("code points: %zu, bytes: %zu\n", cps.size(), text.size());
        std::printf("hex:");
        for (unsigned char b : text) std::printf(" %02x", b);
        std::printf("\ntext: ");
        std::fwrite(text.data(), 1, text.size(), stdout);
        std::printf("\n");
    } else {
        std::printf("error: unknown mode '%s' (use dump or build)\n", argv[1]);
    }
    return 0;
}
