// Feeds hex-encoded MessagePack from stdin to a streaming unpacker in fixed-size chunks and reports each object as it completes.
#include <msgpack.hpp>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <iterator>
#include <string>

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::cerr << "usage: " << argv[0] << " CHUNK_SIZE < hex\n";
        return 2;
    }
    char *end;
    long chunk = std::strtol(argv[1], &end, 10);
    if (*end || end == argv[1] || chunk < 1 || chunk > 4096) {
        std::cout << "error: chunk size must be 1..4096\n";
        return 0;
    }
    std::string text((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    std::string raw;
    int hi = -1;
    for (char c : text) {
        if (std::isspace((unsigned char)c)) continue;
        if (!std::isxdigit((unsigned char)c)) {
            std::cout << "error: not a hex digit\n";
            return 0;
        }
        int v = std::isdigit((unsigned char)c) ? c - '0' : std::tolower((unsigned char)c) - 'a' + 10;
        if (hi < 0) hi = v;
        else {
            raw += (char)(hi * 16 + v);
            hi = -1;
        }
    }
    if (hi >= 0) {
        std::cout << "error: odd number of hex digits\n";
        return 0;
    }
    msgpack::unpacker unp;
    std::size_t pos = 0;
    int feeds = 0, objects = 0;
    try {
        while (pos < raw.length()) {
            std::size_t n = std::min((std::size_t)chunk, raw.length() - pos);
            unp.reserve_buffer(n);
            std::memcpy(unp.buffer(), raw.c_str() + pos, n);
            unp.buffer_consumed(n);
            pos += n;
            feeds++;
            msgpack::object_handle oh;
            while (unp.next(oh)) {
                objects++;
                std::cout << "feed " << feeds << ": object " << objects << " = " << oh.get() << "\n";
            }
        }
    } catch (const msgpack::parse_error &) {
        std::cout << "error: parse error in feed " << feeds << "\n";
        return 0;
    }
    std::cout << "feeds: " << feeds << ", objects: " << objects << "\n";
    return 0;
}
