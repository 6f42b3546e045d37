/* Builds a SHA-256 Merkle tree over the lines of stdin, prints every level, the root and an inclusion proof. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <stdint.h>
#include <sha2.h>

#define MAXLEAVES 1024

static uint8_t nodes[2 * MAXLEAVES + 64][32];

static void hex32(const uint8_t *d, char *out)
{
    for (int i = 0; i < 32; i++) sprintf(out + 2 * i, "%02x", d[i]);
}

static void leaf_hash(const uint8_t *line, size_t n, uint8_t *out)
{
    uint8_t *buf = malloc(n + 1);
    buf[0] = 0x00;
    memcpy(buf + 1, line, n);
    char hex[SHA256_DIGEST_STRING_LENGTH];
    SHA256Data(buf, n + 1, hex);
    for (int i = 0; i < 32; i++) {
        unsigned v;
        sscanf(hex + 2 * i, "%2x", &v);
        out[i] = (uint8_t)v;
    }
    free(buf);
}

static void node_hash(const uint8_t *l, const uint8_t *r, uint8_t *out)
{
    SHA2_CTX ctx;
    const uint8_t tag = 0x01;
    SHA256Init(&ctx);
    SHA256Update(&ctx, &tag, 1);
    SHA256Update(&ctx, l, 32);
    SHA256Update(&ctx, r, 32);
    SHA256Final(out, &ctx);
}

int main(int argc, char **argv)
{
    if (argc > 2) {
        fprintf(stderr, "usage: %s [LEAF_INDEX]\n", argv[0]);
        return 2;
    }
    long want = -1;
    if (argc == 2) {
        char *end;
        const char *s = argv[1];
        if (*s < '0' || *s > '9') {
            printf("error: invalid leaf index '%s'\n", s);
            return 0;
        }
        want = strtol(s, &end, 10);
        if (*end != '\0') {
            printf("error: invalid leaf index '%s'\n", s);
            return 0;
        }
    }
    /* read the leaves */
    int count = 0;
    size_t cap = 256, n = 0;
    uint8_t *line = malloc(cap);
    int c, pending = 0;
    for (;;) {
        c = getchar();
        if (c != EOF && c != '\n') {
            if (n == cap) { cap *= 2; line = realloc(line, cap); }
            line[n++] = (uint8_t)c;
            pending = 1;
            continue;
        }
        if (c == EOF && !pending) break;
        if (count == MAXLEAVES) {
            printf("error: too many leaves (max %d)\n", MAXLEAVES);
            free(line);
            return 0;
        }
        leaf_hash(line, n, nodes[count]);
        count++;
        n = 0;
        pending = 0;
        if (c == EOF) break;
    }
    free(line);
    if (count == 0) {
        printf("error: no leaves\n");
        return 0;
    }
    if (want >= count) {
        printf("error: leaf index %ld out of range (0..%d)\n", want, count - 1);
        return 0;
    }
    /* levels stored one after another */
    int start[16], size[16], levels = 0;
    start[0] = 0;
    size[0] = count;
    levels = 1;
    int next = count;
    while (size[levels - 1] > 1) {
        int s = start[levels - 1], m = size[levels - 1];
        start[levels] = next;
        int k = 0;
        for (int i = 0; i < m; i += 2) {
            if (i + 1 < m) node_hash(nodes[s + i], nodes[s + i + 1], nodes[next + k]);
            else memcpy(nodes[next + k], nodes[s + i], 32);
            k++;
        }
        size[levels] = k;
        next += k;
        levels++;
    }
    char hex[65];
    printf("leaves: %d\n", count);
    printf("levels: %d\n", levels);
    for (int l = 0; l < levels; l++) {
        printf("level %d:", l);
        for (int i = 0; i < size[l]; i++) {
            hex32(nodes[start[l] + i], hex);
            printf(" %.12s", hex);
        }
        printf("\n");
    }
    hex32(nodes[start[levels - 1]], hex);
    printf("root: %s\n", hex);
    if (want >= 0) {
        printf("proof for leaf %ld:\n", want);
        long idx = want;
        uint8_t acc[32];
        memcpy(acc, nodes[start[0] + idx], 32);
        int steps = 0;
        for (int l = 0; l < levels - 1; l++) {
            long sib = idx ^ 1;
            if (sib < size[l]) {
                hex32(nodes[start[l] + sib], hex);
                printf("  %s %s\n", (idx & 1) ? "L" : "R", hex);
                if (idx & 1) node_hash(nodes[start[l] + sib], acc, acc);
                else node_hash(acc, nodes[start[l] + sib], acc);
                steps++;
            }
            idx >>= 1;
        }
        printf("steps: %d\n", steps);
        printf("verified: %s\n", memcmp(acc, nodes[start[levels - 1]], 32) == 0 ? "yes" : "no");
    }
    return 0;
}
