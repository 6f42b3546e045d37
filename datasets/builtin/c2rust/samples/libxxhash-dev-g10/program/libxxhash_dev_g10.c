/* Streams stdin through an XXH3 128-bit state in fixed-size chunks (default, seeded, passphrase secret, or
   passphrase secret plus seed) and prints the digest with a per-chunk trace. */
#include <stdio.h>
#include <string.h>
#define XXH_STATIC_LINKING_ONLY /* XXH3_generateSecret and reset_withSecretandSeed */
#include <xxhash.h>

#define MAX_INPUT (1 << 20)

static unsigned char data[MAX_INPUT];
static unsigned char secret[XXH3_SECRET_DEFAULT_SIZE];

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

static void print_digest(XXH128_hash_t h)
{
    printf("%016llx%016llx", (unsigned long long)h.high64, (unsigned long long)h.low64);
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 5) {
        fprintf(stderr, "usage: %s MODE CHUNK [PASSPHRASE|SEED] [SEED] < data\n", argv[0]);
        return 2;
    }
    const char *mode = argv[1];
    unsigned long long chunk = 0, seed = 0;
    if (parse_u64(argv[2], &chunk) != 0 || chunk == 0 || chunk > 65536) {
        printf("error: CHUNK must be an integer from 1 to 65536, got '%s'\n", argv[2]);
        return 0;
    }
    XXH3_state_t *st = XXH3_createState();
    if (!st) {
        printf("error: out of memory\n");
        return 0;
    }
    XXH_errorcode rc;
    if (strcmp(mode, "default") == 0 && argc == 3) {
        rc = XXH3_128bits_reset(st);
    } else if (strcmp(mode, "seed") == 0 && argc == 4) {
        if (parse_u64(argv[3], &seed) != 0) {
            printf("error: bad seed '%s'\n", argv[3]);
            XXH3_freeState(st);
            return 0;
        }
        rc = XXH3_128bits_reset_withSeed(st, seed);
    } else if ((strcmp(mode, "secret") == 0 && argc == 4) || (strcmp(mode, "keyed") == 0 && argc == 5)) {
        const char *pass = argv[3];
        rc = XXH3_generateSecret(secret, sizeof secret, pass, strlen(pass));
        if (rc != XXH_OK) {
            printf("error: could not generate a secret\n");
            XXH3_freeState(st);
            return 0;
        }
        printf("secret head: ");
        for (int i = 0; i < 8; i++) printf("%02x", secret[i]);
        printf("\n");
        if (argc == 5) {
            if (parse_u64(argv[4], &seed) != 0) {
                printf("error: bad seed '%s'\n", argv[4]);
                XXH3_freeState(st);
                return 0;
            }
            rc = XXH3_128bits_reset_withSecretandSeed(st, secret, sizeof secret, seed);
        } else {
            rc = XXH3_128bits_reset_withSecret(st, secret, sizeof secret);
        }
    } else {
        printf("error: expected 'default CHUNK', 'seed CHUNK SEED', 'secret CHUNK PASSPHRASE' or "
               "'keyed CHUNK PASSPHRASE SEED'\n");
        XXH3_freeState(st);
        return 0;
    }
    if (rc != XXH_OK) {
        printf("error: reset failed\n");
        XXH3_freeState(st);
        return 0;
    }
    size_t n = fread(data, 1, MAX_INPUT, stdin);
    size_t count = 0;
    for (size_t off = 0; off < n; off += chunk) {
        size_t len = n - off < chunk ? n - off : (size_t)chunk;
        if (XXH3_128bits_update(st, data + off, len) != XXH_OK) {
            printf("error: update failed\n");
            break;
        }
        count++;
        if (count <= 8) {
            printf("after chunk %zu (%zu bytes): ", count, off + len);
            print_digest(XXH3_128bits_digest(st));
            printf("\n");
        }
    }
    XXH128_hash_t h = XXH3_128bits_digest(st);
    printf("mode: %s, seed: %llu, bytes: %zu, chunks: %zu\n", mode, seed, n, count);
    printf("digest: ");
    print_digest(h);
    printf("\n");
    printf("low64: %llu\n", (unsigned long long)h.low64);
    XXH3_freeState(st);
    return 0;
}
