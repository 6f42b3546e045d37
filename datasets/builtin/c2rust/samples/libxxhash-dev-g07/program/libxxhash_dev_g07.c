/* Keyed shuffle: orders the lines of stdin by their seeded XXH3 128-bit hash, marks equal hashes, and can
   resume after a cursor (a 128-bit hash in canonical hex) and stop after TOP lines, like a paged listing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

#define MAX_INPUT (1 << 20)
#define MAX_LINES 70000

static char data[MAX_INPUT];
static size_t starts[MAX_LINES];
static size_t lens[MAX_LINES];
static XXH128_hash_t hashes[MAX_LINES];
static int order[MAX_LINES];

static int by_hash(const void *a, const void *b)
{
    int i = *(const int *)a, j = *(const int *)b;
    int c = XXH128_cmp(&hashes[i], &hashes[j]);
    if (c != 0) return c;
    return (i > j) - (i < j);
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: %s SEED [AFTER|-] [TOP] < lines\n", argv[0]);
        return 2;
    }
    unsigned long long seed = 0;
    const char *p = argv[1];
    int neg = 0;
    if (*p == '-') {
        neg = 1;
        p++;
    }
    if (*p == '\0') {
        printf("error: invalid seed '%s'\n", argv[1]);
        return 0;
    }
    for (; *p; p++) {
        if (*p < '0' || *p > '9') {
            printf("error: invalid seed '%s'\n", argv[1]);
            return 0;
        }
        unsigned d = (unsigned)(*p - '0');
        if (seed > (18446744073709551615ULL - d) / 10) {
            printf("error: seed out of range '%s'\n", argv[1]);
            return 0;
        }
        seed = seed * 10 + d;
    }
    if (neg) seed = 0 - seed; /* negative seeds wrap around modulo 2^64 */

    int has_cursor = 0;
    XXH128_hash_t cursor = {0, 0};
    if (argc >= 3 && strcmp(argv[2], "-") != 0) {
        const char *h = argv[2];
        XXH128_canonical_t c;
        if (strlen(h) != 32) {
            printf("error: AFTER must be 32 hex digits or '-', got %zu characters\n", strlen(h));
            return 0;
        }
        for (int i = 0; i < 16; i++) {
            int hi = hexval(h[2 * i]), lo = hexval(h[2 * i + 1]);
            if (hi < 0 || lo < 0) {
                printf("error: AFTER has a non-hex character at position %d\n", hi < 0 ? 2 * i : 2 * i + 1);
                return 0;
            }
            c.digest[i] = (unsigned char)(hi * 16 + lo);
        }
        cursor = XXH128_hashFromCanonical(&c);
        has_cursor = 1;
    }
    long top = -1;
    if (argc == 4) {
        char *end;
        top = strtol(argv[3], &end, 10);
        if (*argv[3] == '\0' || *end != '\0' || top < 0) {
            printf("error: TOP must be a non-negative integer, got '%s'\n", argv[3]);
            return 0;
        }
    }
    size_t n = fread(data, 1, MAX_INPUT, stdin);
    int count = 0;
    size_t pos = 0;
    while (pos < n && count < MAX_LINES) {
        size_t end = pos;
        while (end < n && data[end] != '\n') end++;
        starts[count] = pos;
        lens[count] = end - pos;
        hashes[count] = XXH3_128bits_withSeed(data + pos, end - pos, seed);
        order[count] = count;
        count++;
        pos = end + 1;
    }
    qsort(order, (size_t)count, sizeof(int), by_hash);
    int shown = 0, same = 0, skipped = 0;
    for (int a = 0; a < count; a++) {
        int i = order[a];
        int eq = a > 0 && XXH128_isEqual(hashes[i], hashes[order[a - 1]]);
        if (eq) same++;
        if (has_cursor && XXH128_cmp(&hashes[i], &cursor) <= 0) {
            skipped++;
            continue;
        }
        if (top >= 0 && shown >= top) continue;
        printf("%016llx%016llx #%d%s ", (unsigned long long)hashes[i].high64,
               (unsigned long long)hashes[i].low64, i + 1, eq ? " =" : "");
        fwrite(data + starts[i], 1, lens[i], stdout);
        printf("\n");
        shown++;
    }
    printf("lines: %d, skipped: %d, shown: %d, equal to previous: %d, seed: %llu\n", count, skipped, shown,
           same, seed);
    return 0;
}
