/* Keyed XXH3 hashing: derives a secret from a passphrase (or from a seed) and hashes standard input with it. */
#include <stdio.h>
#include <string.h>
#define XXH_STATIC_LINKING_ONLY /* the secret generators and *_withSecretandSeed are in the static section */
#include <xxhash.h>

#define MAX_INPUT (1 << 20)
#define MAX_SECRET 1024

static unsigned char data[MAX_INPUT];
static unsigned char secret[MAX_SECRET];
static unsigned char seeded[XXH3_SECRET_DEFAULT_SIZE];

static void print_hex_lines(const char *label, const unsigned char *p, size_t n)
{
    printf("%s (%zu bytes):\n", label, n);
    for (size_t i = 0; i < n; i += 32) {
        printf("  ");
        for (size_t j = i; j < n && j < i + 32; j++) printf("%02x", p[j]);
        printf("\n");
    }
}

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

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: %s PASSPHRASE SECRET_SIZE [SEED] < message\n", argv[0]);
        return 2;
    }
    const char *pass = argv[1];
    unsigned long long size = 0, seed = 0;
    if (parse_u64(argv[2], &size) != 0) {
        printf("error: SECRET_SIZE is not a number: '%s'\n", argv[2]);
        return 0;
    }
    if (size > MAX_SECRET) {
        printf("error: SECRET_SIZE %llu is larger than %d\n", size, MAX_SECRET);
        return 0;
    }
    if (argc == 4 && parse_u64(argv[3], &seed) != 0) {
        printf("error: SEED is not a number: '%s'\n", argv[3]);
        return 0;
    }
    if (XXH3_generateSecret(secret, (size_t)size, pass, strlen(pass)) != XXH_OK) {
        printf("error: XXH3_generateSecret refused a %llu-byte secret (minimum %d)\n", size,
               XXH3_SECRET_SIZE_MIN);
        return 0;
    }
    size_t n = fread(data, 1, MAX_INPUT, stdin);
    printf("message: %zu bytes\n", n);
    print_hex_lines("secret", secret, (size_t)size);
    printf("xxh3_64 withSecret: %016llx\n", (unsigned long long)XXH3_64bits_withSecret(data, n, secret, (size_t)size));
    XXH128_hash_t h = XXH3_128bits_withSecret(data, n, secret, (size_t)size);
    printf("xxh3_128 withSecret: %016llx%016llx\n", (unsigned long long)h.high64, (unsigned long long)h.low64);
    printf("xxh3_64 withSecretandSeed(seed=%llu): %016llx\n", seed,
           (unsigned long long)XXH3_64bits_withSecretandSeed(data, n, secret, (size_t)size, seed));
    XXH3_generateSecret_fromSeed(seeded, seed);
    print_hex_lines("secret from seed", seeded, sizeof seeded);
    h = XXH3_128bits_withSecretandSeed(data, n, seeded, sizeof seeded, seed);
    printf("xxh3_128 seeded secret and seed: %016llx%016llx\n", (unsigned long long)h.high64,
           (unsigned long long)h.low64);
    return 0;
}
