/* Digests a text (argument or stdin) with MD5 and/or SHA-1, like md5sum/sha1sum for one string. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <stdint.h>
#include <md5.h>
#include <sha1.h>

static char *read_stdin(size_t *len)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n, stdin)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s md5|sha1|both [TEXT]\n", argv[0]);
        return 2;
    }
    const char *mode = argv[1];
    int want_md5 = 0, want_sha1 = 0;
    if (strcmp(mode, "md5") == 0) want_md5 = 1;
    else if (strcmp(mode, "sha1") == 0) want_sha1 = 1;
    else if (strcmp(mode, "both") == 0) want_md5 = want_sha1 = 1;
    else {
        printf("error: unknown mode '%s'\n", mode);
        return 0;
    }
    char *data;
    size_t len;
    const char *source;
    if (argc == 3) {
        len = strlen(argv[2]);
        data = malloc(len + 1);
        memcpy(data, argv[2], len + 1);
        source = "argument";
    } else {
        data = read_stdin(&len);
        source = "stdin";
    }
    printf("source: %s\n", source);
    printf("bytes: %zu\n", len);
    if (want_md5) {
        char hex[MD5_DIGEST_STRING_LENGTH];
        MD5Data((const uint8_t *)data, len, hex);
        printf("MD5: %s\n", hex);
    }
    if (want_sha1) {
        char hex[SHA1_DIGEST_STRING_LENGTH];
        SHA1Data((const uint8_t *)data, len, hex);
        printf("SHA1: %s\n", hex);
    }
    free(data);
    return 0;
}
