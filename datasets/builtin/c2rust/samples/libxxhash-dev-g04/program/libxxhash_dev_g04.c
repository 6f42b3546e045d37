/* A Bloom filter of words keyed by XXH3 128-bit hashes: "+word" lines add, "?word" lines query, from stdin. */
#include <stdio.h>
#include <string.h>
#include <xxhash.h>

#define MAX_BITS 65536

static unsigned char bits[MAX_BITS / 8];

static int parse_int(const char *s, long *out)
{
    long v = 0;
    if (*s == '\0') return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return -1;
        v = v * 10 + (*s - '0');
        if (v > 100000000L) return -1;
    }
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s BITS HASHES < commands\n", argv[0]);
        return 2;
    }
    long m, k;
    if (parse_int(argv[1], &m) != 0 || m < 8 || m > MAX_BITS) {
        printf("error: BITS must be an integer from 8 to %d, got '%s'\n", MAX_BITS, argv[1]);
        return 0;
    }
    if (parse_int(argv[2], &k) != 0 || k < 1 || k > 16) {
        printf("error: HASHES must be an integer from 1 to 16, got '%s'\n", argv[2]);
        return 0;
    }
    static char line[70000];
    long added = 0, queries = 0, maybe = 0, lineno = 0;
    while (fgets(line, sizeof line, stdin)) {
        lineno++;
        size_t len = strlen(line);
        if (len > 0 && line[len - 1] == '\n') line[--len] = '\0';
        if (len > 0 && line[len - 1] == '\r') line[--len] = '\0';
        if (len == 0 || line[0] == '#') continue;
        char op = line[0];
        const char *word = line + 1;
        size_t wlen = len - 1;
        if (op != '+' && op != '?') {
            printf("line %ld: error: unknown command '%c'\n", lineno, op);
            continue;
        }
        XXH128_hash_t h = XXH3_128bits(word, wlen);
        int all = 1;
        for (long i = 0; i < k; i++) {
            unsigned long long pos = (h.low64 + (unsigned long long)i * h.high64) % (unsigned long long)m;
            unsigned char mask = (unsigned char)(1u << (pos % 8));
            if (op == '+') bits[pos / 8] |= mask;
            else if (!(bits[pos / 8] & mask)) all = 0;
        }
        if (op == '+') {
            added++;
            printf("add %s\n", word);
        } else {
            queries++;
            if (all) maybe++;
            printf("%s %s\n", all ? "maybe" : "no", word);
        }
    }
    long set = 0;
    for (long i = 0; i < m; i++)
        if (bits[i / 8] & (1u << (i % 8))) set++;
    printf("added: %ld, queries: %ld, maybe: %ld\n", added, queries, maybe);
    printf("bits set: %ld/%ld (%.2f%%)\n", set, m, 100.0 * (double)set / (double)m);
    return 0;
}
