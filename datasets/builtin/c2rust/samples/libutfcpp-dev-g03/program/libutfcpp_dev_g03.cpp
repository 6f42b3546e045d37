// UTF-16 converter: "encode" turns UTF-8 text from stdin into UTF-16 code units (hex); "decode" turns hex code
// units from stdin back into UTF-8 text.
#include <cstdio>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <utf8.h>

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s encode|decode < input\n", argv[0]);
        return 2;
    }
    std::string mode = argv[1];
    std::string input((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    if (mode == "encode") {
        std::u16string units;
        try {
            units = utf8::utf8to16(input);
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
        size_t pairs = 0;
        for (size_t i = 0; i < units.size(); i++) {
            std::printf("%04X%s", (unsigned)units[i], (i + 1) % 16 == 0 || i + 1 == units.size() ? "\n" : " ");
            if (units[i] >= 0xD800 && units[i] <= 0xDBFF) pairs++;
        }
        std::printf("bytes: %zu, units: %zu, surrogate pairs: %zu\n", input.size(), units.size(), pairs);
    } else if (mode == "decode") {
        std::u16string units;
        std::istringstream in(input);
        std::string tok;
        while (in >> tok) {
            std::string hex = tok;
            if (hex.size() > 2 && hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X')) hex = hex.substr(2);
            if (hex.empty() || hex.size() > 4 || hex.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) {
                std::printf("error: bad code unit '%s'\n", tok.c_str());
                return 0;
            }
            units.push_back(static_cast<char16_t>(std::stoul(hex, nullptr, 16)));
        }
        std::string text;
        try {
            text = utf8::utf16to8(units);
        } catch (const utf8::invalid_utf16&) {
            std::printf("error: unpaired surrogate in the code units\n");
            return 0;
        }
        std::printf("units: %zu, bytes: %zu\n", units.size(), text.size());
        std::printf("text: ");
        std::fwrite(text.data(), 1, text.size(), stdout);
        std::printf("\n");
    } else {
        std::printf("error: unknown mode '%s' (use encode or decode)\n", argv[1]);
    }
    return 0;
}
