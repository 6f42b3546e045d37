/* Assigns keys to N buckets by their SHA-512 and SHA-384 digests (first 64 bits mod N) and prints a histogram. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <stdint.h>
#include <sha2.h>

static unsigned long long prefix64(const char *hex)
{
    unsigned long long v = 0;
    for (int i = 0; i < 16; i++) {
        char c = hex[i];
        int d = (c >= '0' && c <= '9') ? c - '0' : c - 'a' + 10;
        v = (v << 4) | (unsigned long long)d;
    }
    return v;
}

static int counts[1000];
static int nb;

static void do_key(const char *key, size_t len)
{
    char h512[SHA512_DIGEST_STRING_LENGTH];
    char h384[SHA384_DIGEST_STRING_LENGTH];
    SHA512Data((const uint8_t *)key, len, h512);
    SHA384Data((const uint8_t *)key, len, h384);
    unsigned long long p512 = prefix64(h512), p384 = prefix64(h384);
    int b512 = (int)(p512 % (unsigned long long)nb);
    int b384 = (int)(p384 % (unsigned long long)nb);
    counts[b512]++;
    printf("key \"%.*s\": sha512=%.16s.. bucket %d | sha384=%.16s.. bucket %d%s\n", (int)len, key, h512, b512,
           h384, b384, b512 == b384 ? " (same)" : "");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s BUCKETS [KEY...]\n", argv[0]);
        return 2;
    }
    const char *s = argv[1];
    char *end;
    if (*s < '0' || *s > '9') {
        printf("error: bucket count must be a positive integer: '%s'\n", s);
        return 0;
    }
    long n = strtol(s, &end, 10);
    if (*end != '\0') {
        printf("error: bucket count must be a positive integer: '%s'\n", s);
        return 0;
    }
    if (n < 1 || n > 1000) {
        printf("error: bucket count out of range (1..1000): %s\n", s);
        return 0;
    }
    nb = (int)n;
    int keys = 0;
    if (argc > 2) {
        for (int i = 2; i < argc; i++) {
            do_key(argv[i], strlen(argv[i]));
            keys++;
        }
    } else {
        char line[4096];
        while (fgets(line, sizeof line, stdin)) {
            size_t len = strlen(line);
            if (len > 0 && line[len - 1] == '\n') line[--len] = '\0';
            do_key(line, len);
            keys++;
        }
    }
    printf("keys: %d\n", keys);
    for (int b = 0; b < nb; b++) {
        if (counts[b] > 0) printf("bucket %d: %d\n", b, counts[b]);
    }
    return 0;
}
