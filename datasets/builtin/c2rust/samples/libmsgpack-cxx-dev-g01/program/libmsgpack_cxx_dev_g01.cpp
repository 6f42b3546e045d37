// Encodes each argument as a MessagePack value (integer, float, bool or string) and prints the bytes in hex.
#include <msgpack.hpp>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

static bool parse_int(const char *s, long long &out, bool &is_unsigned, unsigned long long &uout)
{
    if (*s == 0) return false;
    char *end;
    errno = 0;
    if (s[0] != '-') {
        unsigned long long u = std::strtoull(s, &end, 10);
        if (*end || errno || !(s[0] >= '0' && s[0] <= '9')) return false;
        if (u > 9223372036854775807ULL) {
            is_unsigned = true;
            uout = u;
            return true;
        }
        out = (long long)u;
        is_unsigned = false;
        return true;
    }
    long long v = std::strtoll(s, &end, 10);
    if (*end || errno || !(s[1] >= '0' && s[1] <= '9')) return false;
    out = v;
    is_unsigned = false;
    return true;
}

int main(int argc, char **argv)
{
    size_t total = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        msgpack::sbuffer buf;
        long long v = 0;
        unsigned long long u = 0;
        bool is_unsigned = false;
        const char *kind;
        char *end;
        if (parse_int(a, v, is_unsigned, u)) {
            if (is_unsigned) msgpack::pack(buf, u);
            else msgpack::pack(buf, v);
            kind = "int";
        } else if (std::strcmp(a, "true") == 0 || std::strcmp(a, "false") == 0) {
            msgpack::pack(buf, a[0] == 't');
            kind = "bool";
        } else if (std::strpbrk(a, ".eE") && (std::strtod(a, &end), *end == 0) && end != a &&
                   std::strspn(a, "0123456789+-.eE") == std::strlen(a)) {
            msgpack::pack(buf, std::strtod(a, nullptr));
            kind = "float";
        } else {
            msgpack::pack(buf, std::string(a));
            kind = "str";
        }
        std::printf("%-5s %s ->", kind, a);
        for (size_t k = 0; k < buf.size(); k++) std::printf(" %02x", (unsigned char)buf.data()[k]);
        std::printf(" (%zu bytes)\n", buf.size());
        total += buf.size();
    }
    std::printf("total: %zu bytes for %d values\n", total, argc - 1);
    return 0;
}
