/* Fingerprints each line of standard input with XXH3 (64-bit, optionally seeded) and reports duplicate lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#define MAX_INPUT (1 << 20)
#define MAX_LINES 70000

static char data[MAX_INPUT + 1];
static size_t starts[MAX_LINES];
static size_t lens[MAX_LINES];
static unsigned long long hashes[MAX_LINES];
static int first_of[MAX_LINES];
static int order[MAX_LINES];

static int by_hash_then_index(const void *a, const void *b)
{
    int i = *(const int *)a, j = *(const int *)b;
    if (hashes[i] != hashes[j]) return hashes[i] < hashes[j] ? -1 : 1;
    return (i > j) - (i < j);
}

static int same_bytes(int i, int j)
{
    if (lens[i] != lens[j]) return 0;
    for (size_t k = 0; k < lens[i]; k++)
        if (data[starts[i] + k] != data[starts[j] + k]) return 0;
    return 1;
}

int main(int argc, char **argv)
{
    if (argc > 2) {
        fprintf(stderr, "usage: %s [SEED]\n", argv[0]);
        return 2;
    }
    unsigned long long seed = 0;
    if (argc == 2) {
        const char *p = argv[1];
        if (*p == '\0') {
            printf("error: empty seed\n");
            return 0;
        }
        for (; *p; p++) {
            if (*p < '0' || *p > '9') {
                printf("error: seed must be a decimal number: '%s'\n", argv[1]);
                return 0;
            }
            unsigned d = (unsigned)(*p - '0');
            if (seed > (18446744073709551615ULL - d) / 10) {
                printf("error: seed out of range: '%s'\n", argv[1]);
                return 0;
            }
            seed = seed * 10 + d;
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
        count++;
        pos = end + 1; /* a final line without '\n' still counts; a trailing '\n' adds no empty line */
    }
    for (int i = 0; i < count; i++) {
        const char *line = data + starts[i];
        hashes[i] = seed == 0 ? XXH3_64bits(line, lens[i]) : XXH3_64bits_withSeed(line, lens[i], seed);
        order[i] = i;
        first_of[i] = i;
    }
    qsort(order, (size_t)count, sizeof(int), by_hash_then_index);
    for (int a = 0; a < count; a++) {
        int i = order[a];
        for (int b = a - 1; b >= 0 && hashes[order[b]] == hashes[i]; b--) {
            int j = order[b];
            if (same_bytes(i, j)) {
                first_of[i] = first_of[j];
                break;
            }
        }
    }
    int unique = 0;
    for (int i = 0; i < count; i++) {
        printf("%d %016llx ", i + 1, hashes[i]);
        if (first_of[i] == i) {
            unique++;
            printf("new");
        } else {
            printf("dup:%d", first_of[i] + 1);
        }
        printf(" [%zu] ", lens[i]);
        fwrite(data + starts[i], 1, lens[i], stdout);
        printf("\n");
    }
    printf("lines: %d\n", count);
    printf("unique: %d\n", unique);
    printf("duplicates: %d\n", count - unique);
    printf("seed: %llu (%s)\n", seed, seed == 0 ? "XXH3_64bits" : "XXH3_64bits_withSeed");
    return 0;
}
