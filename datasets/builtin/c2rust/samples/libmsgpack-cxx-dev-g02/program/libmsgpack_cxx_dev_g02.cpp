// Decodes MessagePack bytes given in hex and prints every object they hold in JSON-like form.
#include <msgpack.hpp>
#include <cctype>
#include <iostream>
#include <string>
#include <vector>

static const char *type_name(msgpack::type::object_type t)
{
    switch (t) {
    case msgpack::type::NIL: return "nil";
    case msgpack::type::BOOLEAN: return "bool";
    case msgpack::type::POSITIVE_INTEGER: return "uint";
    case msgpack::type::NEGATIVE_INTEGER: return "int";
    case msgpack::type::FLOAT32: return "float32";
    case msgpack::type::FLOAT64: return "float64";
    case msgpack::type::STR: return "str";
    case msgpack::type::BIN: return "bin";
    case msgpack::type::EXT: return "ext";
    case msgpack::type::ARRAY: return "array";
    case msgpack::type::MAP: return "map";
    }
    return "?";
}

int main(int argc, char **argv)
{
    std::string hex;
    for (int i = 1; i < argc; i++) hex += argv[i];
    std::string bytes;
    int nibble = -1;
    for (char c : hex) {
        if (c == ' ' || c == ':') continue;
        if (!std::isxdigit((unsigned char)c)) {
            std::cout << "error: not a hex digit: '" << c << "'\n";
            return 0;
        }
        int v = std::isdigit((unsigned char)c) ? c - '0' : (std::tolower((unsigned char)c) - 'a' + 10);
        if (nibble < 0) nibble = v;
        else {
            bytes += (char)(nibble * 16 + v);
            nibble = -1;
        }
    }
    if (nibble >= 0) {
        std::cout << "error: odd number of hex digits\n";
        return 0;
    }
    std::size_t off = 0;
    int count = 0;
    while (off < bytes.length()) {
        std::size_t start = off;
        try {
            msgpack::object_handle oh = msgpack::unpack(bytes.c_str(), bytes.length(), off);
            msgpack::object obj = oh.get();
            count++;
            std::cout << "#" << count << " @" << start << " " << type_name(obj.type) << ": " << obj << "\n";
        } catch (const msgpack::insufficient_bytes &) {
            std::cout << "error: truncated object at offset " << start << "\n";
            break;
        } catch (const msgpack::parse_error &) {
            std::cout << "error: invalid byte at offset " << start << "\n";
            break;
        } catch (const msgpack::unpack_error &e) {
            std::cout << "error: " << e.what() << "\n";
            break;
        }
    }
    std::cout << count << " object(s), " << bytes.length() << " byte(s)\n";
    return 0;
}
