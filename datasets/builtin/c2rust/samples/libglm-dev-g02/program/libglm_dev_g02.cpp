// Packs RGBA floats into a 32-bit unorm word, unpacks words back to floats, and packs float pairs as two half floats.
#include <glm/glm.hpp>
#include <glm/gtc/packing.hpp>
#include <cfloat>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

static bool num(const char* s, double& out)
{
    char* end = nullptr;
    if (*s == '\0') return false;
    out = std::strtod(s, &end);
    return *end == '\0' && out >= -DBL_MAX && out <= DBL_MAX;
}

static bool hex32(const char* s, uint32_t& out)
{
    size_t n = std::strlen(s);
    if (n == 0 || n > 8) return false;
    uint32_t v = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        int d;
        if (c >= '0' && c <= '9') d = c - '0';
        else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
        else return false;
        v = v * 16 + (uint32_t)d;
    }
    out = v;
    return true;
}

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s pack R G B A | unpack HEX... | half X Y\n", argv[0]);
        return 2;
    }
    const char* op = argv[1];
    if (std::strcmp(op, "pack") == 0) {
        if (argc != 6) {
            std::printf("error: pack needs 4 numbers\n");
            return 0;
        }
        double c[4];
        for (int i = 0; i < 4; i++) {
            if (!num(argv[i + 2], c[i])) {
                std::printf("error: invalid number '%s'\n", argv[i + 2]);
                return 0;
            }
        }
        glm::vec4 v((float)c[0], (float)c[1], (float)c[2], (float)c[3]);
        uint32_t p = glm::packUnorm4x8(v);
        std::printf("packed: %08x\n", (unsigned)p);
        std::printf("bytes: %u %u %u %u\n", (unsigned)(p & 0xff), (unsigned)((p >> 8) & 0xff),
                    (unsigned)((p >> 16) & 0xff), (unsigned)(p >> 24));
    } else if (std::strcmp(op, "unpack") == 0) {
        if (argc < 3) {
            std::printf("error: unpack needs at least one word\n");
            return 0;
        }
        for (int i = 2; i < argc; i++) {
            uint32_t w;
            if (!hex32(argv[i], w)) {
                std::printf("%s: error: not a hex word\n", argv[i]);
                continue;
            }
            glm::vec4 v = glm::unpackUnorm4x8(w);
            std::printf("%08x: %.6f %.6f %.6f %.6f\n", (unsigned)w, v.x, v.y, v.z, v.w);
        }
    } else if (std::strcmp(op, "half") == 0) {
        if (argc != 4) {
            std::printf("error: half needs 2 numbers\n");
            return 0;
        }
        double x, y;
        if (!num(argv[2], x)) {
            std::printf("error: invalid number '%s'\n", argv[2]);
            return 0;
        }
        if (!num(argv[3], y)) {
            std::printf("error: invalid number '%s'\n", argv[3]);
            return 0;
        }
        uint32_t p = glm::packHalf2x16(glm::vec2((float)x, (float)y));
        std::printf("half2x16: %08x (x=%04x y=%04x)\n", (unsigned)p, (unsigned)(p & 0xffff), (unsigned)(p >> 16));
    } else {
        std::printf("error: unknown operation '%s'\n", op);
    }
    return 0;
}
