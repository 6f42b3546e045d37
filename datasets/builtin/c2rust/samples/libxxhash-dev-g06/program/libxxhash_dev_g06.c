/* Verifies a checksum list read from stdin: lines "ALGO HEXDIGEST TEXT" with ALGO xxh32, xxh3 or xxh128. */
#include <stdio.h>
#include <string.h>
#define XXH_STATIC_LINKING_ONLY /* XXH128() is in the static-linking section of xxhash 0.8.1 */
#include <xxhash.h>

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decodes exactly 2*n hex digits into n bytes (the canonical, big-endian form); 0 on success. */
static int decode_hex(const char *s, size_t slen, unsigned char *out, size_t n)
{
    if (slen != 2 * n) return -1;
    for (size_t i = 0; i < n; i++) {
        int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
        if (hi < 0 || lo < 0) return -1;
        out[i] = (unsigned char)(hi * 16 + lo);
    }
    return 0;
}

int main(int argc, char **argv)
{
    (void)argv;
    if (argc != 1) {
        fprintf(stderr, "usage: %s < checksum-list\n", argv[0]);
        return 2;
    }
    static char line[70000];
    int lineno = 0, ok = 0, failed = 0, bad = 0;
    while (fgets(line, sizeof line, stdin)) {
        lineno++;
        size_t len = strlen(line);
        if (len > 0 && line[len - 1] == '\n') line[--len] = '\0';
        if (len == 0) continue;
        /* ALGO, one space, DIGEST, one space, TEXT (the rest of the line, possibly empty) */
        char *sp1 = strchr(line, ' ');
        char *sp2 = sp1 ? strchr(sp1 + 1, ' ') : NULL;
        if (!sp1 || !sp2) {
            printf("%d: error: expected 'ALGO DIGEST TEXT'\n", lineno);
            bad++;
            continue;
        }
        *sp1 = '\0';
        const char *algo = line;
        const char *digest = sp1 + 1;
        size_t dlen = (size_t)(sp2 - digest);
        const char *text = sp2 + 1;
        size_t tlen = len - (size_t)(text - line);
        if (strcmp(algo, "xxh32") == 0) {
            XXH32_canonical_t c;
            if (decode_hex(digest, dlen, c.digest, sizeof c.digest) != 0) {
                printf("%d: error: xxh32 digest must be 8 hex digits\n", lineno);
                bad++;
                continue;
            }
            XXH32_hash_t want = XXH32_hashFromCanonical(&c);
            XXH32_hash_t got = XXH32(text, tlen, 0);
            if (want == got) {
                printf("%d: OK xxh32 %08x\n", lineno, (unsigned)got);
                ok++;
            } else {
                printf("%d: FAILED xxh32 expected %08x got %08x\n", lineno, (unsigned)want, (unsigned)got);
                failed++;
            }
        } else if (strcmp(algo, "xxh3") == 0) {
            XXH64_canonical_t c;
            if (decode_hex(digest, dlen, c.digest, sizeof c.digest) != 0) {
                printf("%d: error: xxh3 digest must be 16 hex digits\n", lineno);
                bad++;
                continue;
            }
            XXH64_hash_t want = XXH64_hashFromCanonical(&c);
            XXH64_hash_t got = XXH3_64bits(text, tlen);
            if (want == got) {
                printf("%d: OK xxh3 %016llx\n", lineno, (unsigned long long)got);
                ok++;
            } else {
                printf("%d: FAILED xxh3 expected %016llx got %016llx\n", lineno, (unsigned long long)want,
                       (unsigned long long)got);
                failed++;
            }
        } else if (strcmp(algo, "xxh128") == 0) {
            XXH128_canonical_t c;
            if (decode_hex(digest, dlen, c.digest, sizeof c.digest) != 0) {
                printf("%d: error: xxh128 digest must be 32 hex digits\n", lineno);
                bad++;
                continue;
            }
            XXH128_hash_t want = XXH128_hashFromCanonical(&c);
            XXH128_hash_t got = XXH128(text, tlen, 0);
            if (XXH128_isEqual(want, got)) {
                printf("%d: OK xxh128 %016llx%016llx\n", lineno, (unsigned long long)got.high64,
                       (unsigned long long)got.low64);
                ok++;
            } else {
                printf("%d: FAILED xxh128 expected %016llx%016llx got %016llx%016llx\n", lineno,
                       (unsigned long long)want.high64, (unsigned long long)want.low64,
                       (unsigned long long)got.high64, (unsigned long long)got.low64);
                failed++;
            }
        } else {
            printf("%d: error: unknown algorithm '%s'\n", lineno, algo);
            bad++;
        }
    }
    printf("checked: %d, ok: %d, failed: %d, malformed: %d\n", ok + failed, ok, failed, bad);
    return 0;
}
