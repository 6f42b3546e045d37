// Converts text values to a chosen C++ type with cxxopts' own value parsers and prints the result or the parse error.
#include <cxxopts.hpp>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

template <typename T>
static void show_int(const std::string& text)
{
    T v{};
    try {
        cxxopts::values::parse_value(text, v);
        std::cout << "'" << text << "' -> " << static_cast<long long>(v) << "\n";
    } catch (const cxxopts::exceptions::exception& e) {
        std::cout << "'" << text << "' -> error: " << e.what() << "\n";
    }
}

static void show_u64(const std::string& text)
{
    uint64_t v = 0;
    try {
        cxxopts::values::parse_value(text, v);
        std::cout << "'" << text << "' -> " << static_cast<unsigned long long>(v) << "\n";
    } catch (const cxxopts::exceptions::exception& e) {
        std::cout << "'" << text << "' -> error: " << e.what() << "\n";
    }
}

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::cerr << "usage: " << argv[0] << " TYPE [VALUE...]\n";
        return 2;
    }
    std::string type = argv[1];
    static const char* types[] = {"i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64",
                                  "bool", "char", "string", "double", "list"};
    bool known = false;
    for (const char* t : types) {
        if (type == t) known = true;
    }
    if (!known) {
        std::cout << "error: unknown type '" << type << "'\n";
        return 0;
    }
    std::cout << "type: " << type << "\n";
    for (int i = 2; i < argc; i++) {
        std::string text = argv[i];
        if (type == "i8") show_int<int8_t>(text);
        else if (type == "u8") show_int<uint8_t>(text);
        else if (type == "i16") show_int<int16_t>(text);
        else if (type == "u16") show_int<uint16_t>(text);
        else if (type == "i32") show_int<int32_t>(text);
        else if (type == "u32") show_int<uint32_t>(text);
        else if (type == "i64") show_int<int64_t>(text);
        else if (type == "u64") show_u64(text);
        else {
            try {
                if (type == "bool") {
                    bool b = false;
                    cxxopts::values::parse_value(text, b);
                    std::cout << "'" << text << "' -> " << (b ? "true" : "false") << "\n";
                } else if (type == "char") {
                    char c = 0;
                    cxxopts::values::parse_value(text, c);
                    std::cout << "'" << text << "' -> code " << static_cast<int>(static_cast<unsigned char>(c)) << "\n";
                } else if (type == "string") {
                    std::string s;
                    cxxopts::values::parse_value(text, s);
                    std::cout << "'" << text << "' -> \"" << s << "\" (" << s.size() << " bytes)\n";
                } else if (type == "double") {
                    double d = 0;
                    cxxopts::values::parse_value(text, d);
                    char buf[64];
                    std::snprintf(buf, sizeof buf, "%.6f", d);
                    std::cout << "'" << text << "' -> " << buf << "\n";
                } else {
                    std::vector<int> list;
                    cxxopts::values::parse_value(text, list);
                    std::cout << "'" << text << "' -> [";
                    for (size_t k = 0; k < list.size(); k++) std::cout << (k ? ", " : "") << list[k];
                    std::cout << "] (" << list.size() << " items)\n";
                }
            } catch (const cxxopts::exceptions::exception& e) {
                std::cout << "'" << text << "' -> error: " << e.what() << "\n";
            }
        }
    }
    std::cout << "values: " << (argc - 2) << "\n";
    return 0;
}
