/* Prints running SHA-512, SHA-384 and RIPEMD-160 digests of stdin after every line (padding a copy of each context), then the final digests. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <stdint.h>
#include <rmd160.h>
#include <sha2.h>

static int use512 = 1, use384 = 1, usermd = 1;

static void checkpoint(int lineno, size_t bytes, const SHA2_CTX *c512, const SHA2_CTX *c384, const RMD160_CTX *crmd)
{
    printf("line %d (%zu bytes):", lineno, bytes);
    if (use512) {
        SHA2_CTX t = *c512;
        SHA512Pad(&t);
        printf(" sha512=%016llx%016llx", (unsigned long long)t.state.st64[0], (unsigned long long)t.state.st64[1]);
    }
    if (use384) {
        SHA2_CTX t = *c384;
        SHA384Pad(&t);
        printf(" sha384=%016llx%016llx", (unsigned long long)t.state.st64[0], (unsigned long long)t.state.st64[1]);
    }
    if (usermd) {
        RMD160_CTX t = *crmd;
        RMD160Pad(&t);
        printf(" rmd160=");
        for (int w = 0; w < 5; w++)
            for (int b = 0; b < 4; b++) printf("%02x", (unsigned)((t.state[w] >> (8 * b)) & 0xff));
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    if (argc > 2) {
        fprintf(stderr, "usage: %s [ALGOS]\n", argv[0]);
        return 2;
    }
    if (argc == 2) {
        use512 = strstr(argv[1], "sha512") != NULL;
        use384 = strstr(argv[1], "sha384") != NULL;
        usermd = strstr(argv[1], "rmd160") != NULL;
        if (!use512 && !use384 && !usermd) {
            printf("error: no known algorithm in '%s'\n", argv[1]);
            return 0;
        }
    }
    SHA2_CTX c512, c384;
    RMD160_CTX crmd;
    SHA512Init(&c512);
    SHA384Init(&c384);
    RMD160Init(&crmd);
    int c, lineno = 0, pending = 0;
    size_t bytes = 0;
    while ((c = getchar()) != EOF) {
        uint8_t b = (uint8_t)c;
        SHA512Update(&c512, &b, 1);
        SHA384Update(&c384, &b, 1);
        RMD160Update(&crmd, &b, 1);
        bytes++;
        pending = 1;
        if (c == '\n') {
            lineno++;
            checkpoint(lineno, bytes, &c512, &c384, &crmd);
            pending = 0;
        }
    }
    if (pending) {
        lineno++;
        checkpoint(lineno, bytes, &c512, &c384, &crmd);
    }
    printf("lines: %d, bytes: %zu\n", lineno, bytes);
    uint8_t d512[SHA512_DIGEST_LENGTH], d384[SHA384_DIGEST_LENGTH], drmd[RMD160_DIGEST_LENGTH];
    SHA512Final(d512, &c512);
    SHA384Final(d384, &c384);
    RMD160Final(drmd, &crmd);
    if (use512) {
        printf("SHA512 ");
        for (int i = 0; i < SHA512_DIGEST_LENGTH; i++) printf("%02x", d512[i]);
        printf("\n");
    }
    if (use384) {
        printf("SHA384 ");
        for (int i = 0; i < SHA384_DIGEST_LENGTH; i++) printf("%02x", d384[i]);
        printf("\n");
    }
    if (usermd) {
        printf("RMD160 ");
        for (int i = 0; i < RMD160_DIGEST_LENGTH; i++) printf("%02x", drmd[i]);
        printf("\n");
    }
    return 0;
}
