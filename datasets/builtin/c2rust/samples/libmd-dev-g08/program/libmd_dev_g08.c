/* Splits stdin into fixed-size chunks and prints MD2, RIPEMD-160 and SHA-384 digests per chunk and for the whole stream. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <stdint.h>
#include <md2.h>
#include <rmd160.h>
#include <sha2.h>

#define SHOWN 16

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s CHUNK_SIZE [ALGOS]\n", argv[0]);
        return 2;
    }
    const char *s = argv[1];
    char *end;
    if (*s < '0' || *s > '9') {
        printf("error: invalid chunk size '%s'\n", s);
        return 0;
    }
    long chunk = strtol(s, &end, 10);
    if (*end != '\0' || chunk < 1 || chunk > 65536) {
        printf("error: invalid chunk size '%s'\n", s);
        return 0;
    }
    int use_md2 = 1, use_rmd = 1, use_sha = 1;
    if (argc == 3) {
        use_md2 = use_rmd = use_sha = 0;
        char *list = malloc(strlen(argv[2]) + 1);
        strcpy(list, argv[2]);
        char *tok = list;
        for (;;) {
            char *comma = strchr(tok, ',');
            if (comma) *comma = '\0';
            if (strcmp(tok, "md2") == 0) use_md2 = 1;
            else if (strcmp(tok, "rmd160") == 0) use_rmd = 1;
            else if (strcmp(tok, "sha384") == 0) use_sha = 1;
            else {
                printf("error: unknown algorithm '%s'\n", tok);
                free(list);
                return 0;
            }
            if (!comma) break;
            tok = comma + 1;
        }
        free(list);
    }
    MD2_CTX tm;
    RMD160_CTX tr;
    SHA2_CTX ts;
    MD2Init(&tm);
    RMD160Init(&tr);
    SHA384Init(&ts);
    uint8_t *buf = malloc((size_t)chunk);
    size_t total = 0;
    int chunks = 0;
    char hm[MD2_DIGEST_STRING_LENGTH], hr[RMD160_DIGEST_STRING_LENGTH], hs[SHA384_DIGEST_STRING_LENGTH];
    for (;;) {
        size_t got = 0, r;
        while (got < (size_t)chunk && (r = fread(buf + got, 1, (size_t)chunk - got, stdin)) > 0) got += r;
        if (got == 0) break;
        MD2Update(&tm, buf, (unsigned int)got);
        RMD160Update(&tr, buf, got);
        SHA384Update(&ts, buf, got);
        if (chunks < SHOWN) {
            printf("chunk %d @%zu +%zu:", chunks, total, got);
            if (use_md2) {
                MD2_CTX c;
                MD2Init(&c);
                MD2Update(&c, buf, (unsigned int)got);
                printf(" md2=%.8s", MD2End(&c, hm));
            }
            if (use_rmd) {
                RMD160_CTX c;
                RMD160Init(&c);
                RMD160Update(&c, buf, got);
                printf(" rmd160=%.8s", RMD160End(&c, hr));
            }
            if (use_sha) {
                SHA2_CTX c;
                SHA384Init(&c);
                SHA384Update(&c, buf, got);
                printf(" sha384=%.8s", SHA384End(&c, hs));
            }
            printf("\n");
        }
        chunks++;
        total += got;
        if (got < (size_t)chunk) break;
    }
    if (chunks > SHOWN) printf("... %d more chunks\n", chunks - SHOWN);
    printf("chunks: %d, bytes: %zu\n", chunks, total);
    MD2End(&tm, hm);
    RMD160End(&tr, hr);
    SHA384End(&ts, hs);
    if (use_md2) printf("MD2 %s\n", hm);
    if (use_rmd) printf("RMD160 %s\n", hr);
    if (use_sha) printf("SHA384 %s\n", hs);
    free(buf);
    return 0;
}
