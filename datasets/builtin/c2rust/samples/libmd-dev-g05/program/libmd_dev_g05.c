/* Computes (and optionally verifies) an HMAC-MD5 or HMAC-SHA1 tag of a message with a text or hex key (RFC 2104). */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <stdint.h>
#include <md5.h>
#include <sha1.h>

#define BLOCK 64

static void h_md5(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen, uint8_t *out)
{
    MD5_CTX ctx;
    MD5Init(&ctx);
    MD5Update(&ctx, a, alen);
    MD5Update(&ctx, b, blen);
    MD5Final(out, &ctx);
}

static void h_sha1(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen, uint8_t *out)
{
    SHA1_CTX ctx;
    SHA1Init(&ctx);
    SHA1Update(&ctx, a, alen);
    SHA1Update(&ctx, b, blen);
    SHA1Final(out, &ctx);
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 5) {
        fprintf(stderr, "usage: %s md5|sha1 KEY [MESSAGE [EXPECTED]]\n", argv[0]);
        return 2;
    }
    int use_md5;
    size_t dlen;
    if (strcmp(argv[1], "md5") == 0) { use_md5 = 1; dlen = MD5_DIGEST_LENGTH; }
    else if (strcmp(argv[1], "sha1") == 0) { use_md5 = 0; dlen = SHA1_DIGEST_LENGTH; }
    else {
        printf("error: unsupported hash '%s'\n", argv[1]);
        return 0;
    }
    void (*h)(const uint8_t *, size_t, const uint8_t *, size_t, uint8_t *) = use_md5 ? h_md5 : h_sha1;

    const char *k = argv[2];
    size_t klen = strlen(k);
    uint8_t *key;
    if (strncmp(k, "hex:", 4) == 0) {
        const char *x = k + 4;
        size_t xl = strlen(x);
        if (xl % 2 != 0) {
            printf("error: hex key has an odd number of digits\n");
            return 0;
        }
        key = malloc(xl / 2 + 1);
        for (size_t i = 0; i < xl; i += 2) {
            int a = hexval((unsigned char)x[i]), b = hexval((unsigned char)x[i + 1]);
            if (a < 0 || b < 0) {
                printf("error: hex key has a non-hex character\n");
                free(key);
                return 0;
            }
            key[i / 2] = (uint8_t)(a * 16 + b);
        }
        klen = xl / 2;
    } else {
        key = malloc(klen + 1);
        memcpy(key, k, klen);
    }

    uint8_t *msg;
    size_t mlen = 0;
    if (argc >= 4) {
        mlen = strlen(argv[3]);
        msg = malloc(mlen + 1);
        memcpy(msg, argv[3], mlen);
    } else {
        size_t cap = 4096;
        msg = malloc(cap);
        size_t got;
        while ((got = fread(msg + mlen, 1, cap - mlen, stdin)) > 0) {
            mlen += got;
            if (mlen == cap) { cap *= 2; msg = realloc(msg, cap); }
        }
    }

    uint8_t k0[BLOCK];
    memset(k0, 0, BLOCK);
    int hashed = 0;
    if (klen > BLOCK) {
        h(key, klen, (const uint8_t *)"", 0, k0);
        hashed = 1;
    } else {
        memcpy(k0, key, klen);
    }
    uint8_t ipad[BLOCK], opad[BLOCK];
    for (int i = 0; i < BLOCK; i++) {
        ipad[i] = k0[i] ^ 0x36;
        opad[i] = k0[i] ^ 0x5c;
    }
    uint8_t inner[20], mac[20];
    h(ipad, BLOCK, msg, mlen, inner);
    h(opad, BLOCK, inner, dlen, mac);

    char hex[41];
    for (size_t i = 0; i < dlen; i++) sprintf(hex + 2 * i, "%02x", mac[i]);
    printf("key: %zu bytes%s\n", klen, hashed ? " (hashed first)" : "");
    printf("message: %zu bytes\n", mlen);
    printf("HMAC-%s: %s\n", use_md5 ? "MD5" : "SHA1", hex);
    if (argc == 5) {
        const char *e = argv[4];
        int ok = strlen(e) == 2 * dlen;
        for (size_t i = 0; ok && i < 2 * dlen; i++) {
            int a = e[i];
            if (a >= 'A' && a <= 'F') a = a - 'A' + 'a';
            if (a != hex[i]) ok = 0;
        }
        printf("verify: %s\n", ok ? "match" : "mismatch");
    }
    free(key);
    free(msg);
    return 0;
}
