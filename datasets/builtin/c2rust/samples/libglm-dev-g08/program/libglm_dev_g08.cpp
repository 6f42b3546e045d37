// Inspects 32-bit unsigned integers with GLM's bit functions: population count, lowest/highest set bit, bit reversal, field extraction and carry-out addition.
#include <glm/glm.hpp>
#include <glm/gtc/bitfield.hpp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

static bool parse_u32(const char* s, uint32_t& out)
{
    if (*s == '\0' || *s == '-' || *s == '+' || *s == ' ') return false;
    char* end = nullptr;
    int base = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10;
    unsigned long long v = std::strtoull(s, &end, base);
    if (*end != '\0' || v > 0xffffffffULL) return false;
    out = (uint32_t)v;
    return true;
}

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s OFFSET:BITS VALUE...\n", argv[0]);
        return 2;
    }
    int off = -1, bits = -1;
    {
        const char* f = argv[1];
        const char* colon = std::strchr(f, ':');
        char* end = nullptr;
        if (colon != nullptr && colon != f && colon[1] != '\0' && f[0] >= '0' && f[0] <= '9' && colon[1] >= '0' && colon[1] <= '9') {
            long o = std::strtol(f, &end, 10);
            if (end == colon) {
                long b = std::strtol(colon + 1, &end, 10);
                if (*end == '\0' && o >= 0 && b >= 1 && o + b <= 32) {
                    off = (int)o;
                    bits = (int)b;
                }
            }
        }
        if (off < 0) {
            std::printf("error: field must be OFFSET:BITS with 1 <= BITS and OFFSET + BITS <= 32\n");
            return 0;
        }
    }
    uint32_t sum = 0, carry_total = 0;
    int count = 0;
    for (int i = 2; i < argc; i++) {
        uint32_t v;
        if (!parse_u32(argv[i], v)) {
            std::printf("%s: error: not an unsigned 32-bit number\n", argv[i]);
            continue;
        }
        count++;
        std::printf("%u (0x%08x)\n", (unsigned)v, (unsigned)v);
        std::printf("  bits set %d, lowest %d, highest %d\n", glm::bitCount(v), glm::findLSB(v), glm::findMSB(v));
        std::printf("  reversed 0x%08x, field[%d:%d] = %u\n", (unsigned)glm::bitfieldReverse(v), off, bits,
                    (unsigned)glm::bitfieldExtract(v, off, bits));
        uint32_t carry = 0;
        sum = glm::uaddCarry(sum, v, carry);
        carry_total += carry;
        std::printf("  running sum %u, carries %u\n", (unsigned)sum, (unsigned)carry_total);
    }
    std::printf("numbers: %d\n", count);
    return 0;
}
