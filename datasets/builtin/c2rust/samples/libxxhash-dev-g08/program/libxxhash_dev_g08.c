/* Streams stdin through XXH32 and XXH64 states in fixed-size chunks, printing running digests, and the
   digests the data would have with a suffix appended (a copied state), in canonical form. */
#include <stdio.h>
#include <string.h>
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

static void print32(const char *label, XXH32_hash_t h)
{
    XXH32_canonical_t c;
    XXH32_canonicalFromHash(&c, h);
    printf("%s", label);
    for (int i = 0; i < 4; i++) printf("%02x", c.digest[i]);
}

static void print64(const char *label, XXH64_hash_t h)
{
    XXH64_canonical_t c;
    XXH64_canonicalFromHash(&c, h);
    printf("%s", label);
    for (int i = 0; i < 8; i++) printf("%02x", c.digest[i]);
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: %s CHUNK [SEED [SUFFIX]] < data\n", argv[0]);
        return 2;
    }
    unsigned long long chunk = 0, seed = 0;
    if (parse_u64(argv[1], &chunk) != 0 || chunk == 0 || chunk > 65536) {
        printf("error: CHUNK must be an integer from 1 to 65536, got '%s'\n", argv[1]);
        return 0;
    }
    if (argc >= 3 && parse_u64(argv[2], &seed) != 0) {
        printf("error: SEED must be a decimal number, got '%s'\n", argv[2]);
        return 0;
    }
    const char *suffix = argc == 4 ? argv[3] : NULL;

    XXH32_state_t *s32 = XXH32_createState();
    XXH64_state_t *s64 = XXH64_createState();
    XXH32_state_t *c32 = XXH32_createState();
    XXH64_state_t *c64 = XXH64_createState();
    if (!s32 || !s64 || !c32 || !c64) {
        printf("error: out of memory\n");
        return 0;
    }
    XXH32_reset(s32, (XXH32_hash_t)seed);
    XXH64_reset(s64, (XXH64_hash_t)seed);

    size_t n = fread(data, 1, MAX_INPUT, stdin);
    size_t count = 0;
    for (size_t off = 0; off < n; off += chunk) {
        size_t len = n - off < chunk ? n - off : (size_t)chunk;
        XXH32_update(s32, data + off, len);
        XXH64_update(s64, data + off, len);
        count++;
        if (count <= 16 || off + len == n) {
            printf("chunk %zu +%zu =%zu", count, len, off + len);
            print32(" xxh32=", XXH32_digest(s32));
            print64(" xxh64=", XXH64_digest(s64));
            printf("\n");
        } else if (count == 17) {
            printf("...\n");
        }
    }
    printf("chunks: %zu\n", count);
    printf("bytes: %zu\n", n);
    printf("seed: %llu (xxh32 seed %u)\n", seed, (unsigned)(XXH32_hash_t)seed);
    print32("final xxh32: ", XXH32_digest(s32));
    printf("\n");
    print64("final xxh64: ", XXH64_digest(s64));
    printf("\n");
    if (suffix) {
        XXH32_copyState(c32, s32);
        XXH64_copyState(c64, s64);
        size_t slen = strlen(suffix);
        XXH32_update(c32, suffix, slen);
        XXH64_update(c64, suffix, slen);
        printf("suffix: %zu bytes\n", slen);
        print32("with suffix xxh32: ", XXH32_digest(c32));
        printf("\n");
        print64("with suffix xxh64: ", XXH64_digest(c64));
        printf("\n");
        print32("unchanged xxh32: ", XXH32_digest(s32));
        printf("\n");
        print64("unchanged xxh64: ", XXH64_digest(s64));
        printf("\n");
    }
    XXH32_freeState(s32);
    XXH64_freeState(s64);
    XXH32_freeState(c32);
    XXH64_freeState(c64);
    return 0;
}
