/* BSD-style checksum lines "ALGO (text) = hex": writes them for text lines, or checks them, over MD4/MD5/RMD160/SHA256/SHA512. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <stdint.h>
#include <md4.h>
#include <md5.h>
#include <rmd160.h>
#include <sha2.h>

static int digest(const char *alg, const uint8_t *d, size_t n, char *out)
{
    if (strcmp(alg, "MD4") == 0) MD4Data(d, n, out);
    else if (strcmp(alg, "MD5") == 0) MD5Data(d, n, out);
    else if (strcmp(alg, "RMD160") == 0) RMD160Data(d, n, out);
    else if (strcmp(alg, "SHA256") == 0) SHA256Data(d, n, out);
    else if (strcmp(alg, "SHA512") == 0) SHA512Data(d, n, out);
    else return -1;
    return 0;
}

static char *read_line(size_t *len, int *eof)
{
    size_t cap = 128, n = 0;
    char *buf = malloc(cap);
    int c;
    *eof = 0;
    while ((c = getchar()) != EOF && c != '\n') {
        if (n + 1 >= cap) { cap *= 2; buf = realloc(buf, cap); }
        buf[n++] = (char)c;
    }
    if (c == EOF && n == 0) { *eof = 1; }
    if (n > 0 && buf[n - 1] == '\r') n--;
    buf[n] = '\0';
    *len = n;
    return buf;
}

int main(int argc, char **argv)
{
    if (argc > 2) {
        fprintf(stderr, "usage: %s [check|make]\n", argv[0]);
        return 2;
    }
    const char *mode = argc == 2 ? argv[1] : "check";
    int make;
    if (strcmp(mode, "check") == 0) make = 0;
    else if (strcmp(mode, "make") == 0) make = 1;
    else {
        printf("error: unknown mode '%s'\n", mode);
        return 0;
    }
    char out[SHA512_DIGEST_STRING_LENGTH];
    int lineno = 0, ok = 0, failed = 0, bad = 0;
    for (;;) {
        size_t len;
        int eof;
        char *line = read_line(&len, &eof);
        if (eof) { free(line); break; }
        lineno++;
        if (make) {
            char *sp = strchr(line, ' ');
            if (sp == NULL) {
                printf("line %d: error: expected 'ALGO TEXT'\n", lineno);
                bad++;
            } else {
                *sp = '\0';
                const char *text = sp + 1;
                if (digest(line, (const uint8_t *)text, strlen(text), out) < 0) {
                    printf("line %d: error: unknown algorithm '%s'\n", lineno, line);
                    bad++;
                } else {
                    printf("%s (%s) = %s\n", line, text, out);
                    ok++;
                }
            }
        } else {
            char *open = strstr(line, " (");
            char *close = NULL;
            for (char *p = line; (p = strstr(p, ") = ")) != NULL; p++) close = p;
            if (open == NULL || close == NULL || close < open + 2) {
                printf("line %d: improperly formatted\n", lineno);
                bad++;
            } else {
                *open = '\0';
                *close = '\0';
                const char *alg = line;
                const char *text = open + 2;
                const char *want = close + 4;
                if (digest(alg, (const uint8_t *)text, strlen(text), out) < 0) {
                    printf("line %d: unknown algorithm '%s'\n", lineno, alg);
                    bad++;
                } else {
                    int match = strlen(want) == strlen(out);
                    for (size_t i = 0; match && out[i]; i++) {
                        char w = want[i];
                        if (w >= 'A' && w <= 'F') w = (char)(w - 'A' + 'a');
                        if (w != out[i]) match = 0;
                    }
                    if (match) {
                        printf("line %d: %s (%s): OK\n", lineno, alg, text);
                        ok++;
                    } else {
                        printf("line %d: %s (%s): FAILED (got %s)\n", lineno, alg, text, out);
                        failed++;
                    }
                }
            }
        }
        free(line);
    }
    if (make) printf("written: %d, errors: %d\n", ok, bad);
    else printf("ok: %d, failed: %d, malformed: %d\n", ok, failed, bad);
    return 0;
}
