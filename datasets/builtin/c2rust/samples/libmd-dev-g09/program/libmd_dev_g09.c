/* Runs the raw block compression functions (MD4, MD5, SHA-1, RIPEMD-160, SHA-256, SHA-512) on one zero-padded text block from their initial states. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <stdint.h>
#include <md4.h>
#include <md5.h>
#include <sha1.h>
#include <rmd160.h>
#include <sha2.h>

static void print32(const char *label, const uint32_t *w, int n)
{
    printf("  %s:", label);
    for (int i = 0; i < n; i++) printf(" %08x", (unsigned)w[i]);
    printf("\n");
}

static void print64(const char *label, const uint64_t *w, int n)
{
    printf("  %s:", label);
    for (int i = 0; i < n; i++) printf(" %016llx", (unsigned long long)w[i]);
    printf("\n");
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: %s ALGO TEXT [ROUNDS]\n", argv[0]);
        return 2;
    }
    const char *alg = argv[1];
    const char *text = argv[2];
    size_t tlen = strlen(text);
    long rounds = 1;
    if (argc == 4) {
        char *end;
        const char *s = argv[3];
        if (*s < '0' || *s > '9') {
            printf("error: invalid rounds '%s'\n", s);
            return 0;
        }
        rounds = strtol(s, &end, 10);
        if (*end != '\0' || rounds < 1 || rounds > 1000) {
            printf("error: invalid rounds '%s'\n", s);
            return 0;
        }
    }
    int all = strcmp(alg, "all") == 0;
    int known = all || !strcmp(alg, "md4") || !strcmp(alg, "md5") || !strcmp(alg, "sha1") ||
                !strcmp(alg, "rmd160") || !strcmp(alg, "sha256") || !strcmp(alg, "sha512");
    if (!known) {
        printf("error: unknown algorithm '%s'\n", alg);
        return 0;
    }
    size_t need = (all || !strcmp(alg, "sha512")) ? (all ? 64 : 128) : 64;
    if (all && tlen > 64) {
        printf("error: text is %zu bytes, a 64-byte block holds at most 64 (use sha512 alone for 128)\n", tlen);
        return 0;
    }
    if (tlen > need) {
        printf("error: text is %zu bytes, the %s block holds %zu\n", tlen, alg, need);
        return 0;
    }
    uint8_t b64[64], b128[128];
    memset(b64, 0, sizeof b64);
    memset(b128, 0, sizeof b128);
    memcpy(b64, text, tlen < 64 ? tlen : 64);
    memcpy(b128, text, tlen);
    printf("block: %zu text bytes, rounds: %ld\n", tlen, rounds);

    if (all || !strcmp(alg, "md4")) {
        MD4_CTX c;
        MD4Init(&c);
        printf("md4\n");
        print32("init", c.state, 4);
        for (long r = 0; r < rounds; r++) MD4Transform(c.state, b64);
        print32("after", c.state, 4);
    }
    if (all || !strcmp(alg, "md5")) {
        MD5_CTX c;
        MD5Init(&c);
        printf("md5\n");
        print32("init", c.state, 4);
        for (long r = 0; r < rounds; r++) MD5Transform(c.state, b64);
        print32("after", c.state, 4);
    }
    if (all || !strcmp(alg, "sha1")) {
        SHA1_CTX c;
        SHA1Init(&c);
        printf("sha1\n");
        print32("init", c.state, 5);
        for (long r = 0; r < rounds; r++) SHA1Transform(c.state, b64);
        print32("after", c.state, 5);
    }
    if (all || !strcmp(alg, "rmd160")) {
        RMD160_CTX c;
        RMD160Init(&c);
        printf("rmd160\n");
        print32("init", c.state, 5);
        for (long r = 0; r < rounds; r++) RMD160Transform(c.state, b64);
        print32("after", c.state, 5);
    }
    if (all || !strcmp(alg, "sha256")) {
        SHA2_CTX c;
        SHA256Init(&c);
        printf("sha256\n");
        print32("init", c.state.st32, 8);
        for (long r = 0; r < rounds; r++) SHA256Transform(c.state.st32, b64);
        print32("after", c.state.st32, 8);
    }
    if (all || !strcmp(alg, "sha512")) {
        SHA2_CTX c;
        SHA512Init(&c);
        printf("sha512\n");
        print64("init", c.state.st64, 8);
        for (long r = 0; r < rounds; r++) SHA512Transform(c.state.st64, b128);
        print64("after", c.state.st64, 8);
    }
    return 0;
}
