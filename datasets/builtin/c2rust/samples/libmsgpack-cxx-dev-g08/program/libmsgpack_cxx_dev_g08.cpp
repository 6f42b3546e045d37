// Prints an indented tree view of a hex-encoded MessagePack object (argv), showing each node's type, size and value.
#include <msgpack.hpp>
#include <cctype>
#include <cstdio>
#include <string>

static void show(const msgpack::object &o, int depth, const char *label)
{
    std::printf("%*s%s", depth * 2, "", label);
    switch (o.type) {
    case msgpack::type::NIL: std::printf("nil\n"); break;
    case msgpack::type::BOOLEAN: std::printf("bool %s\n", o.via.boolean ? "true" : "false"); break;
    case msgpack::type::POSITIVE_INTEGER: std::printf("uint %llu\n", (unsigned long long)o.via.u64); break;
    case msgpack::type::NEGATIVE_INTEGER: std::printf("int %lld\n", (long long)o.via.i64); break;
    case msgpack::type::FLOAT32: std::printf("float32 %.6f\n", o.via.f64); break;
    case msgpack::type::FLOAT64: std::printf("float64 %.6f\n", o.via.f64); break;
    case msgpack::type::STR:
        std::printf("str[%u] \"%.*s\"\n", o.via.str.size, (int)o.via.str.size, o.via.str.ptr);
        break;
    case msgpack::type::BIN: {
        std::printf("bin[%u]", o.via.bin.size);
        for (uint32_t i = 0; i < o.via.bin.size; i++) std::printf(" %02x", (unsigned char)o.via.bin.ptr[i]);
        std::printf("\n");
        break;
    }
    case msgpack::type::EXT:
        std::printf("ext type %d [%u]", (int)o.via.ext.type(), o.via.ext.size);
        for (uint32_t i = 0; i < o.via.ext.size; i++) std::printf(" %02x", (unsigned char)o.via.ext.data()[i]);
        std::printf("\n");
        break;
    case msgpack::type::ARRAY:
        std::printf("array[%u]\n", o.via.array.size);
        for (uint32_t i = 0; i < o.via.array.size; i++) {
            char l[32];
            std::snprintf(l, sizeof l, "%u: ", i);
            show(o.via.array.ptr[i], depth + 1, l);
        }
        break;
    case msgpack::type::MAP:
        std::printf("map[%u]\n", o.via.map.size);
        for (uint32_t i = 0; i < o.via.map.size; i++) {
            show(o.via.map.ptr[i].key, depth + 1, "key: ");
            show(o.via.map.ptr[i].val, depth + 2, "value: ");
        }
        break;
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s HEX\n", argv[0]);
        return 2;
    }
    std::string raw;
    int hi = -1;
    for (const char *p = argv[1]; *p; p++) {
        if (*p == ' ') continue;
        if (!std::isxdigit((unsigned char)*p)) {
            std::printf("error: not a hex digit\n");
            return 0;
        }
        int v = std::isdigit((unsigned char)*p) ? *p - '0' : std::tolower((unsigned char)*p) - 'a' + 10;
        if (hi < 0) hi = v;
        else {
            raw += (char)(hi * 16 + v);
            hi = -1;
        }
    }
    if (hi >= 0) {
        std::printf("error: odd number of hex digits\n");
        return 0;
    }
    msgpack::object_handle oh;
    std::size_t off = 0;
    try {
        msgpack::unpack(oh, raw.c_str(), raw.length(), off);
    } catch (const msgpack::insufficient_bytes &) {
        std::printf("error: truncated input\n");
        return 0;
    } catch (const msgpack::parse_error &) {
        std::printf("error: invalid input\n");
        return 0;
    }
    show(*oh, 0, "");
    if (off < raw.length()) std::printf("(%zu trailing bytes ignored)\n", raw.length() - off);
    return 0;
}
