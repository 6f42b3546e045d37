// Builds a MessagePack stream from a token list with the low-level packer API and prints it in hex.
#include <msgpack.hpp>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

// A minimal output stream for msgpack::packer: collects the bytes.
struct ByteSink {
    std::string bytes;
    void write(const char *p, std::size_t n) { bytes.append(p, n); }
};

static bool to_i64(const char *s, long long &v)
{
    char *end;
    errno = 0;
    v = std::strtoll(s, &end, 10);
    return *s && !*end && !errno;
}

static bool to_u64(const char *s, unsigned long long &v)
{
    char *end;
    errno = 0;
    v = std::strtoull(s, &end, 10);
    return *s && *s != '-' && !*end && !errno;
}

static bool to_f64(const char *s, double &v)
{
    char *end;
    v = std::strtod(s, &end);
    return *s && !*end;
}

int main(int argc, char **argv)
{
    ByteSink sink;
    msgpack::packer<ByteSink> pk(sink);
    for (int i = 1; i < argc; i++) {
        const char *t = argv[i];
        const char *arg = std::strchr(t, ':') ? std::strchr(t, ':') + 1 : "";
        std::size_t head = std::strchr(t, ':') ? (std::size_t)(std::strchr(t, ':') - t) : std::strlen(t);
        std::string kind(t, head);
        long long iv;
        unsigned long long uv;
        double dv;
        bool ok = true;
        if (kind == "nil") pk.pack_nil();
        else if (kind == "true") pk.pack_true();
        else if (kind == "false") pk.pack_false();
        else if (kind == "i" && (ok = to_i64(arg, iv))) pk.pack_int64(iv);
        else if (kind == "u" && (ok = to_u64(arg, uv))) pk.pack_uint64(uv);
        else if (kind == "f" && (ok = to_f64(arg, dv))) pk.pack_float((float)dv);
        else if (kind == "d" && (ok = to_f64(arg, dv))) pk.pack_double(dv);
        else if (kind == "s") {
            pk.pack_str((uint32_t)std::strlen(arg));
            pk.pack_str_body(arg, (uint32_t)std::strlen(arg));
        } else if (kind == "b") {
            pk.pack_bin((uint32_t)std::strlen(arg));
            pk.pack_bin_body(arg, (uint32_t)std::strlen(arg));
        } else if (kind == "a" && (ok = to_u64(arg, uv)) && (ok = uv <= 0xffffffffULL)) pk.pack_array((uint32_t)uv);
        else if (kind == "m" && (ok = to_u64(arg, uv)) && (ok = uv <= 0xffffffffULL)) pk.pack_map((uint32_t)uv);
        else if (kind == "x") {
            // x:TYPE:DATA — an extension value of type TYPE (-128..127)
            char *end;
            long type = std::strtol(arg, &end, 10);
            if (end == arg || *end != ':' || type < -128 || type > 127) {
                std::cout << "error: token " << i << ": bad extension '" << t << "'\n";
                return 0;
            }
            const char *data = end + 1;
            pk.pack_ext(std::strlen(data), (int8_t)type);
            pk.pack_ext_body(data, (uint32_t)std::strlen(data));
        } else {
            std::cout << "error: token " << i << ": " << (ok ? "unknown token" : "bad number") << " '" << t << "'\n";
            return 0;
        }
    }
    static const char digits[] = "0123456789abcdef";
    std::string hex;
    bool first = true;
    for (unsigned char c : sink.bytes) {
        if (!first) hex += ' ';
        first = false;
        hex += digits[c >> 4];
        hex += digits[c & 15];
    }
    std::cout << sink.bytes.length() << " bytes: " << hex << "\n";
    return 0;
}
