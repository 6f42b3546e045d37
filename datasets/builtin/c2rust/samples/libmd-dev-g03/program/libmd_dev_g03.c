/* Decodes a hex byte string (separators allowed) and prints its MD2 and/or RIPEMD-160 digest. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <stdint.h>
#include <md2.h>
#include <rmd160.h>

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s md2|rmd160|all HEX\n", argv[0]);
        return 2;
    }
    const char *alg = argv[1];
    int md2 = 0, rmd = 0;
    if (strcmp(alg, "md2") == 0) md2 = 1;
    else if (strcmp(alg, "rmd160") == 0) rmd = 1;
    else if (strcmp(alg, "all") == 0) md2 = rmd = 1;
    else {
        printf("error: unknown algorithm '%s'\n", alg);
        return 0;
    }
    const char *s = argv[2];
    size_t slen = strlen(s);
    unsigned char *bytes = malloc(slen / 2 + 1);
    size_t nbytes = 0;
    int high = -1;
    for (size_t i = 0; i < slen; i++) {
        int c = (unsigned char)s[i];
        if (c == ' ' || c == ':' || c == '-' || c == '\t') {
            if (high >= 0) {
                printf("error: separator splits a byte at offset %zu\n", i);
                free(bytes);
                return 0;
            }
            continue;
        }
        int v = hexval(c);
        if (v < 0) {
            printf("error: invalid hex character at offset %zu\n", i);
            free(bytes);
            return 0;
        }
        if (high < 0) high = v;
        else {
            bytes[nbytes++] = (unsigned char)(high * 16 + v);
            high = -1;
        }
    }
    if (high >= 0) {
        printf("error: odd number of hex digits\n");
        free(bytes);
        return 0;
    }
    printf("bytes: %zu\n", nbytes);
    printf("data:");
    for (size_t i = 0; i < nbytes && i < 32; i++) printf(" %02x", bytes[i]);
    if (nbytes > 32) printf(" ...");
    printf("\n");
    if (md2) {
        char hex[MD2_DIGEST_STRING_LENGTH];
        MD2Data(bytes, nbytes, hex);
        printf("MD2: %s\n", hex);
    }
    if (rmd) {
        char hex[RMD160_DIGEST_STRING_LENGTH];
        RMD160Data(bytes, nbytes, hex);
        printf("RMD160: %s\n", hex);
    }
    free(bytes);
    return 0;
}
