/* Hashes a text argument with XXH32 and XXH64 (optionally seeded), whole and word by word. */
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <xxhash.h>

/* Parses a decimal or 0x-prefixed hexadecimal unsigned 64-bit number; 0 on success. */
static int parse_seed(const char *s, unsigned long long *out)
{
    unsigned long long v = 0;
    int base = 10;
    const char *p = s;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    }
    if (*p == '\0') return -1;
    for (; *p; p++) {
        int d;
        if (*p >= '0' && *p <= '9') d = *p - '0';
        else if (base == 16 && *p >= 'a' && *p <= 'f') d = *p - 'a' + 10;
        else if (base == 16 && *p >= 'A' && *p <= 'F') d = *p - 'A' + 10;
        else return -1;
        if (v > (18446744073709551615ULL - (unsigned long long)d) / (unsigned long long)base) return -2;
        v = v * (unsigned long long)base + (unsigned long long)d;
    }
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s TEXT [SEED]\n", argv[0]);
        return 2;
    }
    const char *text = argv[1];
    unsigned long long seed = 0;
    if (argc == 3) {
        int rc = parse_seed(argv[2], &seed);
        if (rc == -1) {
            printf("error: invalid seed '%s'\n", argv[2]);
            return 0;
        }
        if (rc == -2) {
            printf("error: seed out of range '%s'\n", argv[2]);
            return 0;
        }
    }
    size_t len = strlen(text);
    unsigned seed32 = (unsigned)(seed & 0xFFFFFFFFULL);
    unsigned version = XXH_versionNumber();
    printf("xxhash %u.%u.%u\n", version / 10000, version / 100 % 100, version % 100);
    printf("length: %zu\n", len);
    printf("seed: %llu (xxh32 uses %u)\n", seed, seed32);
    printf("xxh32: %08x\n", (unsigned)XXH32(text, len, seed32));
    printf("xxh64: %016llx\n", (unsigned long long)XXH64(text, len, (XXH64_hash_t)seed));

    /* words: maximal runs of characters other than space and tab */
    size_t i = 0;
    int count = 0;
    while (i < len) {
        while (i < len && (text[i] == ' ' || text[i] == '\t')) i++;
        if (i >= len) break;
        size_t start = i;
        while (i < len && text[i] != ' ' && text[i] != '\t') i++;
        size_t wlen = i - start;
        count++;
        printf("word %d: \"%.*s\" xxh32=%08x xxh64=%016llx\n", count, (int)wlen, text + start,
               (unsigned)XXH32(text + start, wlen, seed32),
               (unsigned long long)XXH64(text + start, wlen, (XXH64_hash_t)seed));
    }
    printf("words: %d\n", count);
    return 0;
}
