/* Prints the XXH128 digest (canonical big-endian hex) of standard input, whole and per fixed-size block. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define XXH_STATIC_LINKING_ONLY /* XXH128() is in the static-linking section of xxhash 0.8.1 */
#include <xxhash.h>

#define MAX_INPUT (1 << 20)

static unsigned char data[MAX_INPUT];

static int parse_u64(const char *s, unsigned long long *out)
{
    unsigned long long v = 0;
    if (*s == '\0') return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return -1;
        unsigned d = (unsigned)(*s - '0');
        if (v > (18446744073709551615ULL - d) / 10) return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

static void print_canonical(XXH128_hash_t h)
{
    XXH128_canonical_t c;
    XXH128_canonicalFromHash(&c, h);
    for (int i = 0; i < 16; i++) printf("%02x", c.digest[i]);
}

int main(int argc, char **argv)
{
    if (argc > 3) {
        fprintf(stderr, "usage: %s [SEED [BLOCK_SIZE]]\n", argv[0]);
        return 2;
    }
    unsigned long long seed = 0, block = 0;
    if (argc >= 2 && parse_u64(argv[1], &seed) != 0) {
        printf("error: bad seed '%s'\n", argv[1]);
        return 0;
    }
    if (argc == 3) {
        if (parse_u64(argv[2], &block) != 0) {
            printf("error: bad block size '%s'\n", argv[2]);
            return 0;
        }
        if (block == 0 || block > 65536) {
            printf("error: block size must be between 1 and 65536\n");
            return 0;
        }
    }
    size_t n = fread(data, 1, MAX_INPUT, stdin);
    XXH128_hash_t whole = XXH128(data, n, seed);
    printf("bytes: %zu\n", n);
    printf("seed: %llu\n", seed);
    printf("xxh128: ");
    print_canonical(whole);
    printf("\n");
    printf("high64: %016llx\n", (unsigned long long)whole.high64);
    printf("low64: %016llx\n", (unsigned long long)whole.low64);
    if (block > 0) {
        size_t count = 0;
        for (size_t off = 0; off < n; off += block) {
            size_t len = n - off < block ? n - off : (size_t)block;
            printf("block %zu @%zu+%zu: ", count, off, len);
            print_canonical(XXH128(data + off, len, seed));
            printf("\n");
            count++;
        }
        printf("blocks: %zu\n", count);
    }
    return 0;
}
